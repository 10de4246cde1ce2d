/* SM3 hash function (GB/T 32905-2016) over messages whose length is given in bits, as the
 * bundled SM3 baseline of hashbench needs it. */
#ifndef SM3_H
#define SM3_H

#define SM3_DIGEST_BYTES 32

/* Writes SM3 of the first msg_len_bits bits of msg to out. msg holds ceil(msg_len_bits / 8)
 * bytes, read most significant bit first; a partial last byte carries its bits at the high
 * end and its unused low bits are ignored. msg may be NULL when msg_len_bits is 0. */
void sm3_hash_bits(unsigned char out[SM3_DIGEST_BYTES], const unsigned char *msg,
                   unsigned long long msg_len_bits);

#endif /* SM3_H */
