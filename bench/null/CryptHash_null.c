/* CryptHash_null.c — the harness's null instance: a CryptHash that does nothing, timed like any
 * library so that the campaign can state what the timing loop and a call cost on their own. */
int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest);

int CryptHash(int digest_len_bits, const unsigned char *msg, unsigned long long msg_len_bits,
	unsigned char *digest)
{
	(void)digest_len_bits;
	(void)msg;
	(void)msg_len_bits;
	(void)digest;
	return 0;
}
