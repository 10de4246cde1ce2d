/* SHA-512 (FIPS 180-4) over messages whose length is given in bits, as the bundled SHA-512
 * baseline of hashbench needs it. */
#ifndef SHA512_H
#define SHA512_H

#define SHA512_DIGEST_BYTES 64

/* Writes SHA-512 of the first msg_len_bits bits of msg to out. msg holds
 * ceil(msg_len_bits / 8) bytes, read most significant bit first (the FIPS 180-4 order); a
 * partial last byte carries its bits at the high end and its unused low bits are ignored.
 * msg may be NULL when msg_len_bits is 0. */
void sha512_hash_bits(unsigned char out[SHA512_DIGEST_BYTES], const unsigned char *msg,
                      unsigned long long msg_len_bits);

#endif /* SHA512_H */
