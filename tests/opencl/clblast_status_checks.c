/* plugins/opencl/clblast_status.c (compiled into this test): CLBlast's
 * statuses in words. Where clblast_c.h is installed, every status code it
 * declares must have its own name in the plugin's table. Needs no device. */
#include <stdio.h>
#include <string.h>
#include "../check.h"
#include "clblast_status.h"
#include "clblast_status_checks.h"

#ifdef GH_HAVE_CLBLAST_H
#include <clblast_c.h>
#define NAMED(code) \
    {               \
        code, #code \
    }
/* Every enumerator of CLBlastStatusCode in clblast_c.h (CLBlast 1.5.3). */
static const struct {
    int code;
    const char *name;
} header_codes[] = {
    NAMED(CLBlastSuccess),
    NAMED(CLBlastOpenCLCompilerNotAvailable),
    NAMED(CLBlastTempBufferAllocFailure),
    NAMED(CLBlastOpenCLOutOfResources),
    NAMED(CLBlastOpenCLOutOfHostMemory),
    NAMED(CLBlastOpenCLBuildProgramFailure),
    NAMED(CLBlastInvalidValue),
    NAMED(CLBlastInvalidCommandQueue),
    NAMED(CLBlastInvalidMemObject),
    NAMED(CLBlastInvalidBinary),
    NAMED(CLBlastInvalidBuildOptions),
    NAMED(CLBlastInvalidProgram),
    NAMED(CLBlastInvalidProgramExecutable),
    NAMED(CLBlastInvalidKernelName),
    NAMED(CLBlastInvalidKernelDefinition),
    NAMED(CLBlastInvalidKernel),
    NAMED(CLBlastInvalidArgIndex),
    NAMED(CLBlastInvalidArgValue),
    NAMED(CLBlastInvalidArgSize),
    NAMED(CLBlastInvalidKernelArgs),
    NAMED(CLBlastInvalidLocalNumDimensions),
    NAMED(CLBlastInvalidLocalThreadsTotal),
    NAMED(CLBlastInvalidLocalThreadsDim),
    NAMED(CLBlastInvalidGlobalOffset),
    NAMED(CLBlastInvalidEventWaitList),
    NAMED(CLBlastInvalidEvent),
    NAMED(CLBlastInvalidOperation),
    NAMED(CLBlastInvalidBufferSize),
    NAMED(CLBlastInvalidGlobalWorkSize),
    NAMED(CLBlastNotImplemented),
    NAMED(CLBlastInvalidMatrixA),
    NAMED(CLBlastInvalidMatrixB),
    NAMED(CLBlastInvalidMatrixC),
    NAMED(CLBlastInvalidVectorX),
    NAMED(CLBlastInvalidVectorY),
    NAMED(CLBlastInvalidDimension),
    NAMED(CLBlastInvalidLeadDimA),
    NAMED(CLBlastInvalidLeadDimB),
    NAMED(CLBlastInvalidLeadDimC),
    NAMED(CLBlastInvalidIncrementX),
    NAMED(CLBlastInvalidIncrementY),
    NAMED(CLBlastInsufficientMemoryA),
    NAMED(CLBlastInsufficientMemoryB),
    NAMED(CLBlastInsufficientMemoryC),
    NAMED(CLBlastInsufficientMemoryX),
    NAMED(CLBlastInsufficientMemoryY),
    NAMED(CLBlastInsufficientMemoryTemp),
    NAMED(CLBlastInvalidBatchCount),
    NAMED(CLBlastInvalidOverrideKernel),
    NAMED(CLBlastMissingOverrideParameter),
    NAMED(CLBlastInvalidLocalMemUsage),
    NAMED(CLBlastNoHalfPrecision),
    NAMED(CLBlastNoDoublePrecision),
    NAMED(CLBlastInvalidVectorScalar),
    NAMED(CLBlastInsufficientMemoryScalar),
    NAMED(CLBlastDatabaseError),
    NAMED(CLBlastUnknownError),
    NAMED(CLBlastUnexpectedError),
};
#endif

void clblast_status_checks(void)
{
    char text[200];
    ocl_clblast_status_text(-1016, text, sizeof text);
    CHECK(strcmp(text, "CLBlastInvalidLeadDimA (-1016: LD of A is smaller than the matrix's first dimension)") == 0,
          "clblast status: a known code gives its name, value and meaning (%s)", text);
    ocl_clblast_status_text(-2045, text, sizeof text);
    CHECK(strstr(text, "CLBlastNoHalfPrecision") != NULL, "clblast status: -2045 is CLBlastNoHalfPrecision (%s)", text);
    ocl_clblast_status_text(-7, text, sizeof text);
    CHECK(strcmp(text, "unknown CLBlast status (-7)") == 0, "clblast status: a code CLBlast does not name says so (%s)",
          text);
    CHECK(ocl_clblast_status_name(-1) == NULL, "clblast status: no name for -1");
#ifdef GH_HAVE_CLBLAST_H
    int named = 0, count = (int)(sizeof header_codes / sizeof header_codes[0]);
    for (int i = 0; i < count; i++) {
        const char *name = ocl_clblast_status_name(header_codes[i].code);
        if (name && strcmp(name, header_codes[i].name) == 0) named++;
        else
            CHECK(0, "clblast status: %s (%d) is %s in the plugin's table", header_codes[i].name, header_codes[i].code,
                  name ? name : "missing");
    }
    CHECK(named == count, "clblast status: all %d codes of clblast_c.h named as the header names them", count);
#else
    check_skip("clblast status: clblast_c.h is not installed (libclblast-dev): the table is not checked against it");
#endif
}
