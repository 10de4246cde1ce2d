/* #define ALGORITHM_INSTANCE "commented_out" */
#  define ALGORITHM_INSTANCE "toy_256" // the name
#define DIGEST_BIT_LENGTH (256UL) /* bits */
