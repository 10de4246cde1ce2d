/* elfsize.c — the static size of a library: the sum of its loadable segments' memory sizes
 * (PT_LOAD p_memsz), what `readelf -lW` lists, split into the segments without the write flag
 * (code and read-only data) and the writable ones (.data and .bss). */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "hbutil.h"

int hb_elf_load_size(unsigned long long *out, const char *path)
{
	hb_elf_sizes s;
	int rc = hb_elf_sizes_read(&s, path);
	*out = s.total;
	return rc;
}

int hb_elf_sizes_read(hb_elf_sizes *out, const char *path)
{
	hb_buf buf;
	const Elf64_Ehdr *eh;
	unsigned long long text = 0, data = 0;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (hb_file_read_raw(&buf, path) != 0)
		return HB_ERROR;
	eh = (const Elf64_Ehdr *)buf.data;
	if (buf.len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
		rc = hb_error_set("%s: not an ELF file", path);
		goto out;
	}
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof(Elf64_Phdr) ||
		eh->e_phoff > buf.len || (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > buf.len - eh->e_phoff) {
		rc = hb_error_set("%s: not a 64-bit ELF file with a readable program header", path);
		goto out;
	}
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(buf.data + eh->e_phoff) + i;
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_flags & PF_W)
			data += ph->p_memsz;
		else
			text += ph->p_memsz;
	}
	out->text = text;
	out->data = data;
	out->total = text + data;
out:
	hb_buf_free(&buf);
	return rc;
}
