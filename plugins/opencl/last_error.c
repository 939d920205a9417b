/* One error buffer per thread: calls for different devices run on different
 * threads at once, and each must read back its own failure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cl_errors.h"
#include "last_error.h"

/* Large enough for a useful stretch of a compiler log. */
#define ERROR_TEXT_SIZE 16384

static _Thread_local char error_text[ERROR_TEXT_SIZE];

static void set_error_v(const char *fmt, va_list ap)
{
    vsnprintf(error_text, sizeof error_text, fmt, ap);
}

gh_status ocl_fail(gh_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error_v(fmt, ap);
    va_end(ap);
    return status;
}

const char *ocl_cl_code_text(cl_int code, char *buf, size_t size)
{
    const char *name = cl_error_name(code);
    if (name)
        snprintf(buf, size, "%s (%d)", name, (int)code);
    else
        snprintf(buf, size, "unknown OpenCL error (%d)", (int)code);
    return buf;
}

gh_status ocl_fail_cl(cl_int code, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error_v(fmt, ap);
    va_end(ap);
    char code_text[96];
    size_t used = strlen(error_text);
    snprintf(error_text + used, sizeof error_text - used, ": %s: %s", call,
             ocl_cl_code_text(code, code_text, sizeof code_text));
    if (code == CL_OUT_OF_HOST_MEMORY || code == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        return GH_OUT_OF_MEMORY;
    return GH_ERROR;
}

void ocl_error_append(const char *text)
{
    static const char cut_note[] = "\n[... cut short]";
    size_t used = strlen(error_text);
    size_t room = sizeof error_text - used - 1;
    size_t len = strlen(text);
    if (len <= room) {
        memcpy(error_text + used, text, len + 1);
        return;
    }
    size_t keep = room > sizeof cut_note - 1 ? room - (sizeof cut_note - 1) : 0;
    memcpy(error_text + used, text, keep);
    memcpy(error_text + used + keep, cut_note, room - keep);
    error_text[sizeof error_text - 1] = '\0';
}

const char *ocl_last_error(void)
{
    return error_text;
}
