/* libFuzzer target: an INI config, through inih and gemmhost's schema
 * (core/config), with a few --set overrides. Any input must give a config
 * or a message, never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static const char *const overrides[] = {"run.seed=7", "cpu.tile=8"};
    /* The input's last byte picks whether the overrides apply: both paths. */
    size_t n_overrides = size && (data[size - 1] & 1) ? 2 : 0;
    gh_config cfg;
    char err[4096];
    if (gh_config_load_text(text, "<fuzz>", overrides, n_overrides, &cfg, err, sizeof err) == 0) gh_config_free(&cfg);
    else if (!err[0]) abort(); /* a refusal always says why */
    free(text);
    return 0;
}
