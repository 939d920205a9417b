/* A library that has CLBlast's GEMM calls but not CLBlastOverrideParameters
 * (an older or partial CLBlast): test_clblast_tuned.sh names it in the
 * clblast option to see clblast-tuned refused, naming the missing call,
 * before anything is called. The calls only need to be found by dlsym: if one
 * were called it would say CLBlastNotImplemented. */
int CLBlastSgemm(void);
int CLBlastDgemm(void);
int CLBlastHgemm(void);
int CLBlastClearCache(void);

int CLBlastSgemm(void)
{
    return -1024;
}

int CLBlastDgemm(void)
{
    return -1024;
}

int CLBlastHgemm(void)
{
    return -1024;
}

int CLBlastClearCache(void)
{
    return 0;
}
