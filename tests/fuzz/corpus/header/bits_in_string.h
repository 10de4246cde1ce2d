#define ALGORITHM_INSTANCE "toy_256"
const char *s = "#define DIGEST_BIT_LENGTH 256";
