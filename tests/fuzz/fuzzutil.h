/* fuzzutil.h — what the fuzz harnesses share: a private temporary folder per process, made once
 * and removed at exit, and writing an input into a file there for readers that take a path. */
#ifndef HBF_FUZZUTIL_H
#define HBF_FUZZUTIL_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The folder ($TMPDIR, else /dev/shm, else /tmp); exits the process when it cannot be made. */
const char *hbf_tmpdir(void);
/* "<tmpdir>/<rel>" (caller frees). */
char *hbf_path(const char *rel);
/* Write data to <tmpdir>/<rel>, making the folders on the way; exits on failure. */
void hbf_write(const char *rel, const void *data, size_t len);
void hbf_write_str(const char *rel, const char *text);
/* A NUL-terminated copy of the input (caller frees). */
char *hbf_strndup(const uint8_t *data, size_t size);

#endif
