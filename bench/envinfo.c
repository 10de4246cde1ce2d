/* envinfo.c — what the machine is, read from /proc, /sys and /etc below a root folder, so a
 * recorded tree can stand in for a machine in tests. A value that cannot be read stays NULL/-1. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hbmeasure.h"
#include "hbutil.h"

/* Every read goes below root; oom records an allocation failure so the caller gets an error
 * rather than a field that silently went missing. */
typedef struct {
	const char *root;
	int oom;
} S_tree;

static char *S_track(S_tree *t, char *p)
{
	if (!p)
		t->oom = 1;
	return p;
}

/* Replace control characters by spaces, collapse runs of spaces and trim, in place. */
static char *S_clean(char *s)
{
	char *r, *w = s;
	int space = 0;
	for (r = s; *r; r++) {
		unsigned char c = (unsigned char)*r;
		if (c <= ' ' || c == 0x7f) {
			space = 1;
			continue;
		}
		if (space && w > s)
			*w++ = ' ';
		space = 0;
		*w++ = (char)c;
	}
	*w = 0;
	return s;
}

static char *S_dup_clean(S_tree *t, const char *s, size_t n)
{
	char *d = S_track(t, strndup(s, n));
	if (d && !S_clean(d)[0]) {
		free(d);
		d = NULL;
	}
	return d;
}

/* Whole contents of root/rel, NUL-terminated; NULL when it cannot be read. rel is relative:
 * hb_path_join would drop the root in front of an absolute one. */
static char *S_read(S_tree *t, const char *rel)
{
	char *path = S_track(t, hb_path_join(t->root, rel));
	hb_buf buf = { NULL, 0 };

	if (!path)
		return NULL;
	/* not hb_file_read: /proc and /sys files report sizes (0, 4096) unrelated to their text */
	if (hb_file_read_raw(&buf, path) != 0)
		buf.data = NULL;
	free(path);
	return (char *)buf.data;
}

/* First line of root/rel, cleaned (a device-tree string ends at its NUL); NULL when absent or
 * empty. */
static char *S_value(S_tree *t, const char *rel)
{
	char *text = S_read(t, rel), *eol;
	if (!text)
		return NULL;
	if ((eol = strchr(text, '\n')) != NULL)
		*eol = 0;
	if (!S_clean(text)[0]) {
		free(text);
		return NULL;
	}
	return text;
}

static long long S_parse_count(const char *s)
{
	long long v = 0;
	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || v > (0x7fffffffffffffffLL - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* A non-negative decimal number in root/<fmt with cpu>, or -1. */
static long long S_cpu_number(S_tree *t, const char *fmt, int cpu)
{
	char *rel = S_track(t, hb_sprintf(fmt, cpu)), *v;
	long long n;
	if (!rel)
		return -1;
	v = S_value(t, rel);
	n = S_parse_count(v);
	free(v);
	free(rel);
	return n;
}

static char *S_cpu_value(S_tree *t, const char *fmt, int cpu)
{
	char *rel = S_track(t, hb_sprintf(fmt, cpu)), *v;
	if (!rel)
		return NULL;
	v = S_value(t, rel);
	free(rel);
	return v;
}

/* ---- /proc/cpuinfo ---- */

/* Split one line "key<blanks>: value" into trimmed key and value; 0 when it has no colon. */
static int S_field(const char *line, size_t len, const char **k, size_t *klen, const char **v,
	size_t *vlen)
{
	const char *colon = memchr(line, ':', len), *end = line + len;
	if (!colon)
		return 0;
	*k = line;
	*klen = (size_t)(colon - line);
	while (*klen && isspace((unsigned char)line[*klen - 1]))
		(*klen)--;
	*v = colon + 1;
	while (*v < end && isspace((unsigned char)**v))
		(*v)++;
	*vlen = (size_t)(end - *v);
	while (*vlen && isspace((unsigned char)(*v)[*vlen - 1]))
		(*vlen)--;
	return 1;
}

/* Value of key in the entry of the given CPU ("processor : N"); when no entry names that CPU,
 * the value every entry agrees on. NULL when there is none or the entries disagree. */
static char *S_cpuinfo_get(S_tree *t, const char *text, int cpu, const char *key)
{
	const char *p = text, *pinned = NULL, *first = NULL, *k, *v;
	size_t pinned_len = 0, first_len = 0, klen, vlen, keylen = strlen(key);
	int proc = -1, disagree = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (!S_field(p, len, &k, &klen, &v, &vlen)) {
			if (strspn(p, " \t\r") >= len)
				proc = -1; /* a blank line ends an entry */
		} else if (klen == 9 && memcmp(k, "processor", 9) == 0) {
			char num[16];
			if (vlen > 0 && vlen < sizeof(num) && strspn(v, "0123456789") == vlen) {
				memcpy(num, v, vlen);
				num[vlen] = 0;
				proc = atoi(num);
			} else {
				proc = -1;
			}
		} else if (klen == keylen && memcmp(k, key, klen) == 0) {
			if (proc == cpu && !pinned) {
				pinned = v;
				pinned_len = vlen;
			}
			if (!first) {
				first = v;
				first_len = vlen;
			} else if (first_len != vlen || memcmp(first, v, vlen) != 0) {
				disagree = 1;
			}
		}
		p += len + (eol ? 1 : 0);
	}
	if (pinned)
		return S_dup_clean(t, pinned, pinned_len);
	if (first && !disagree)
		return S_dup_clean(t, first, first_len);
	return NULL;
}

static int S_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;
	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == 0 || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

/* ---- AArch64 processor names from MIDR fields, as /proc/cpuinfo shows them ---- */

static const struct {
	unsigned implementer;
	const char *vendor;
} S_vendors[] = {
	{ 0x41, "Arm" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" }, { 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" }, { 0x50, "APM" }, { 0x51, "Qualcomm" },
	{ 0x53, "Samsung" }, { 0x56, "Marvell" }, { 0x61, "Apple" }, { 0x69, "Intel" },
	{ 0x6d, "Microsoft" }, { 0x70, "Phytium" }, { 0xc0, "Ampere" },
};

static const struct {
	unsigned implementer, part;
	const char *name;
} S_parts[] = {
	{ 0x41, 0xd02, "Arm Cortex-A34" },
	{ 0x41, 0xd03, "Arm Cortex-A53" },
	{ 0x41, 0xd04, "Arm Cortex-A35" },
	{ 0x41, 0xd05, "Arm Cortex-A55" },
	{ 0x41, 0xd06, "Arm Cortex-A65" },
	{ 0x41, 0xd07, "Arm Cortex-A57" },
	{ 0x41, 0xd08, "Arm Cortex-A72" },
	{ 0x41, 0xd09, "Arm Cortex-A73" },
	{ 0x41, 0xd0a, "Arm Cortex-A75" },
	{ 0x41, 0xd0b, "Arm Cortex-A76" },
	{ 0x41, 0xd0c, "Arm Neoverse-N1" },
	{ 0x41, 0xd0d, "Arm Cortex-A77" },
	{ 0x41, 0xd0e, "Arm Cortex-A76AE" },
	{ 0x41, 0xd40, "Arm Neoverse-V1" },
	{ 0x41, 0xd41, "Arm Cortex-A78" },
	{ 0x41, 0xd42, "Arm Cortex-A78AE" },
	{ 0x41, 0xd43, "Arm Cortex-A65AE" },
	{ 0x41, 0xd44, "Arm Cortex-X1" },
	{ 0x41, 0xd46, "Arm Cortex-A510" },
	{ 0x41, 0xd47, "Arm Cortex-A710" },
	{ 0x41, 0xd48, "Arm Cortex-X2" },
	{ 0x41, 0xd49, "Arm Neoverse-N2" },
	{ 0x41, 0xd4a, "Arm Neoverse-E1" },
	{ 0x41, 0xd4b, "Arm Cortex-A78C" },
	{ 0x41, 0xd4c, "Arm Cortex-X1C" },
	{ 0x41, 0xd4d, "Arm Cortex-A715" },
	{ 0x41, 0xd4e, "Arm Cortex-X3" },
	{ 0x41, 0xd4f, "Arm Neoverse-V2" },
	{ 0x41, 0xd80, "Arm Cortex-A520" },
	{ 0x41, 0xd81, "Arm Cortex-A720" },
	{ 0x41, 0xd82, "Arm Cortex-X4" },
	{ 0x41, 0xd84, "Arm Neoverse-V3" },
	{ 0x41, 0xd85, "Arm Cortex-X925" },
	{ 0x41, 0xd87, "Arm Cortex-A725" },
	{ 0x41, 0xd8e, "Arm Neoverse-N3" },
	{ 0x42, 0x516, "Broadcom Vulcan" },
	{ 0x43, 0x0a1, "Cavium ThunderX" },
	{ 0x43, 0x0af, "Cavium ThunderX2" },
	{ 0x43, 0x0b8, "Marvell ThunderX3" },
	{ 0x46, 0x001, "Fujitsu A64FX" },
	{ 0x48, 0xd01, "HiSilicon TaiShan v110 (Kunpeng 920)" },
	{ 0x4e, 0x000, "NVIDIA Denver" },
	{ 0x4e, 0x003, "NVIDIA Denver 2" },
	{ 0x4e, 0x004, "NVIDIA Carmel" },
	{ 0x51, 0x001, "Qualcomm Oryon" },
	{ 0x51, 0x800, "Qualcomm Kryo" },
	{ 0x51, 0x801, "Qualcomm Kryo" },
	{ 0x51, 0x802, "Qualcomm Kryo" },
	{ 0x51, 0x803, "Qualcomm Kryo" },
	{ 0x51, 0x804, "Qualcomm Kryo" },
	{ 0x51, 0x805, "Qualcomm Kryo" },
	{ 0x51, 0xc00, "Qualcomm Falkor" },
	{ 0x61, 0x022, "Apple M1 Icestorm" },
	{ 0x61, 0x023, "Apple M1 Firestorm" },
	{ 0x61, 0x032, "Apple M2 Blizzard" },
	{ 0x61, 0x033, "Apple M2 Avalanche" },
	{ 0x70, 0x662, "Phytium FTC662" },
	{ 0x70, 0x663, "Phytium FTC663" },
	{ 0x70, 0x862, "Phytium FTC862" },
	{ 0xc0, 0xac3, "Ampere-1" },
	{ 0xc0, 0xac4, "Ampere-1a" },
};

static int S_parse_hex(unsigned *out, const char *s)
{
	char *end;
	unsigned long v;
	if (!s || strncasecmp(s, "0x", 2) != 0 || !isxdigit((unsigned char)s[2]))
		return -1;
	v = strtoul(s + 2, &end, 16);
	if (*end || v > 0xffff)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static char *S_arm_name(S_tree *t, const char *implementer_s, const char *part_s)
{
	unsigned implementer, part;
	size_t i;

	if (S_parse_hex(&implementer, implementer_s) != 0 || S_parse_hex(&part, part_s) != 0)
		return NULL;
	for (i = 0; i < sizeof(S_parts) / sizeof(S_parts[0]); i++)
		if (S_parts[i].implementer == implementer && S_parts[i].part == part)
			return S_track(t, hb_strdup(S_parts[i].name));
	for (i = 0; i < sizeof(S_vendors) / sizeof(S_vendors[0]); i++)
		if (S_vendors[i].implementer == implementer)
			return S_track(t, hb_sprintf("%s part 0x%03x", S_vendors[i].vendor, part));
	return S_track(t, hb_sprintf("implementer 0x%02x part 0x%03x", implementer, part));
}

/* ---- machine names: DMI and device tree ---- */

/* What firmware writes when the vendor filled nothing in. */
static int S_placeholder(const char *s)
{
	static const char *const words[] = {
		"To Be Filled By O.E.M.", "To Be Filled By OEM", "System Product Name",
		"System manufacturer", "System Version", "System Name", "Default string", "Default",
		"None", "Not Specified", "Not Applicable", "N/A", "NA", "OEM", "O.E.M.", "Unknown",
		"Undefined", "Invalid", "Type1ProductConfigId", "Type1Family", "Product Name",
		"Manufacturer", "Vendor", "Default_string", "x.x", "0123456789", "1234567890",
	};
	size_t i;
	if (!s || !*s)
		return 1;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	return 0;
}

static int S_contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

/* A product_version worth printing names something ("ThinkPad X1 Carbon Gen 9"); revision
 * numbers ("1.0", "Rev 1.xx", "V2") and placeholders are left out. */
static int S_version_meaningful(const char *version, const char *product)
{
	const char *p;
	int run = 0, best = 0;

	if (S_placeholder(version))
		return 0;
	if (strncasecmp(version, "rev", 3) == 0 || strncasecmp(version, "ver", 3) == 0)
		return 0;
	if (product && S_contains_ci(product, version))
		return 0;
	for (p = version; *p; p++) {
		run = isalpha((unsigned char)*p) ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best >= 2;
}

/* "<vendor> <product> [<version>]" from DMI; the vendor is not repeated when the product name
 * already starts with it. NULL when neither product name nor version names anything. */
static char *S_dmi_machine(S_tree *t, const char *vendor, const char *product,
	const char *version)
{
	const char *parts[3] = { NULL, NULL, NULL };
	size_t n = 0;
	int has_product = !S_placeholder(product);
	int has_version = version && S_version_meaningful(version, has_product ? product : NULL);

	if (!has_product && !has_version)
		return NULL;
	if (!S_placeholder(vendor) &&
		!(has_product && strncasecmp(product, vendor, strlen(vendor)) == 0))
		parts[n++] = vendor;
	if (has_product)
		parts[n++] = product;
	if (has_version)
		parts[n++] = version;
	if (n == 1)
		return S_track(t, hb_strdup(parts[0]));
	if (n == 2)
		return S_track(t, hb_sprintf("%s %s", parts[0], parts[1]));
	return S_track(t, hb_sprintf("%s %s %s", parts[0], parts[1], parts[2]));
}

/* The hypervisor DMI names, or NULL. Amazon's bare-metal instances (*.metal) share the vendor
 * string of its virtual ones. */
static const char *S_dmi_hypervisor(const char *vendor, const char *product)
{
	const char *v = vendor ? vendor : "", *p = product ? product : "";
	size_t plen = strlen(p);

	if (S_contains_ci(p, "KVM"))
		return "KVM";
	if (strcasecmp(v, "QEMU") == 0 || S_contains_ci(p, "QEMU"))
		return "QEMU";
	if (S_contains_ci(v, "VMware") || S_contains_ci(p, "VMware"))
		return "VMware";
	if (S_contains_ci(v, "innotek") || S_contains_ci(p, "VirtualBox"))
		return "VirtualBox";
	if (strcasecmp(v, "Xen") == 0 || strcasecmp(p, "HVM domU") == 0)
		return "Xen";
	if (strcasecmp(v, "Microsoft Corporation") == 0 && S_contains_ci(p, "Virtual Machine"))
		return "Hyper-V";
	if (strcasecmp(v, "Amazon EC2") == 0 &&
		!(plen >= 6 && strcasecmp(p + plen - 6, ".metal") == 0))
		return "Amazon EC2";
	if (strcasecmp(p, "Google Compute Engine") == 0)
		return "Google Compute Engine";
	if (S_contains_ci(v, "Parallels"))
		return "Parallels";
	if (strcasecmp(v, "Bochs") == 0)
		return "Bochs";
	return NULL;
}

/* ---- os-release, meminfo, tools ---- */

/* Value of KEY=… in an os-release text, unquoted; NULL when absent or empty. */
static char *S_os_release_get(S_tree *t, const char *text, const char *key)
{
	size_t keylen = strlen(key);
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len > keylen && memcmp(p, key, keylen) == 0 && p[keylen] == '=') {
			const char *v = p + keylen + 1, *end = p + len;
			char *out = S_track(t, malloc(len + 1)), *w = out;
			char quote = 0;
			if (!out)
				return NULL;
			if (v < end && (*v == '"' || *v == '\''))
				quote = *v++;
			for (; v < end; v++) {
				if (quote && *v == quote)
					break;
				if (quote == '"' && *v == '\\' && v + 1 < end && strchr("\"\\$`", v[1]))
					v++;
				*w++ = *v;
			}
			*w = 0;
			if (!S_clean(out)[0]) {
				free(out);
				return NULL;
			}
			return out;
		}
		p += len + (eol ? 1 : 0);
	}
	return NULL;
}

static long long S_memory_mib(S_tree *t)
{
	char *text = S_read(t, "proc/meminfo"), *line, *e;
	long long kb = -1;

	if (!text)
		return -1;
	for (line = text; line && *line; line = (e = strchr(line, '\n')) ? e + 1 : NULL) {
		if (strncmp(line, "MemTotal:", 9) == 0) {
			char *p = line + 9, *q;
			while (*p == ' ' || *p == '\t')
				p++;
			for (q = p; isdigit((unsigned char)*q); q++)
				;
			if (q > p && strncmp(q, " kB", 3) == 0) {
				char save = *q;
				*q = 0;
				kb = S_parse_count(p);
				*q = save;
			}
			break;
		}
	}
	free(text);
	return kb < 0 ? -1 : kb / 1024;
}

/* First line of what `argv` prints, when it exits 0 within 10 s; NULL otherwise. */
static char *S_tool_line(S_tree *t, char *const argv[])
{
	char *output = NULL, *eol, *line = NULL;
	int rc = hb_run_capture(&output, argv, 10);

	if (rc == 0 && output) {
		if ((eol = strchr(output, '\n')) != NULL)
			*eol = 0;
		line = S_dup_clean(t, output, strlen(output));
	}
	free(output);
	return line;
}

/* ---- warnings ---- */

typedef struct {
	char **v;
	size_t n, cap;
} S_list;

static void S_warn(S_tree *t, S_list *l, char *s)
{
	if (!S_track(t, s))
		return;
	if (l->n + 1 >= l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		char **g = realloc(l->v, cap * sizeof(*g));
		if (!g) {
			free(s);
			t->oom = 1;
			return;
		}
		l->v = g;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

static void S_warnings(S_tree *t, hb_env *env)
{
	S_list l = { NULL, 0, 0 };

	if (!env->governor)
		S_warn(t, &l, hb_sprintf("CPU %d has no cpufreq governor to read (no cpufreq "
			"driver), so its clock speed is unknown and cannot be held fixed.", env->cpu));
	else if (strcmp(env->governor, "performance") != 0)
		S_warn(t, &l, hb_sprintf("The cpufreq governor of CPU %d is \"%s\", not "
			"\"performance\": the clock may change during a measurement.", env->cpu,
			env->governor));
	if (env->boost_state && strcmp(env->boost_state, "on") == 0)
		S_warn(t, &l, hb_sprintf("%s is on: the clock may rise above its base frequency "
			"and vary with temperature and load.",
			strcmp(env->boost_name, "turbo") == 0 ? "Turbo" : "Boost"));
	if (env->smt && strcmp(env->smt, "on") == 0)
		S_warn(t, &l, hb_sprintf("SMT is on: another hardware thread may share the core "
			"of CPU %d.", env->cpu));
	if (env->virtual_machine == 1)
		S_warn(t, &l, hb_sprintf("Running in a virtual machine (%s): the host may share "
			"or reschedule the CPU.",
			env->hypervisor ? env->hypervisor : "hypervisor not named"));
	env->warnings = l.v ? l.v : (char **)calloc(1, sizeof(char *));
	if (!env->warnings)
		t->oom = 1;
}

/* ---- the reader ---- */

static void S_read_cpufreq(S_tree *t, hb_env *env)
{
	const char *base = "sys/devices/system/cpu/cpu%d/cpufreq/";
	char fmt[128];
	char *v;

	snprintf(fmt, sizeof(fmt), "%sscaling_governor", base);
	env->governor = S_cpu_value(t, fmt, env->cpu);
	snprintf(fmt, sizeof(fmt), "%sscaling_min_freq", base);
	if ((env->min_khz = S_cpu_number(t, fmt, env->cpu)) < 0) {
		snprintf(fmt, sizeof(fmt), "%scpuinfo_min_freq", base);
		env->min_khz = S_cpu_number(t, fmt, env->cpu);
	}
	snprintf(fmt, sizeof(fmt), "%sscaling_max_freq", base);
	if ((env->max_khz = S_cpu_number(t, fmt, env->cpu)) < 0) {
		snprintf(fmt, sizeof(fmt), "%scpuinfo_max_freq", base);
		env->max_khz = S_cpu_number(t, fmt, env->cpu);
	}
	snprintf(fmt, sizeof(fmt), "%sscaling_cur_freq", base);
	env->cur_khz = S_cpu_number(t, fmt, env->cpu);

	/* global cpufreq boost (acpi-cpufreq, cppc, amd-pstate), intel_pstate's inverted
	 * no_turbo, then the per-policy boost file of newer kernels */
	if ((v = S_value(t, "sys/devices/system/cpu/cpufreq/boost")) == NULL) {
		char *no_turbo = S_value(t, "sys/devices/system/cpu/intel_pstate/no_turbo");
		if (no_turbo && (strcmp(no_turbo, "0") == 0 || strcmp(no_turbo, "1") == 0)) {
			env->boost_name = S_track(t, hb_strdup("turbo"));
			env->boost_state = S_track(t, hb_strdup(no_turbo[0] == '1' ? "off" : "on"));
		}
		free(no_turbo);
		if (env->boost_name)
			return;
		snprintf(fmt, sizeof(fmt), "%sboost", base);
		v = S_cpu_value(t, fmt, env->cpu);
	}
	if (v && (strcmp(v, "0") == 0 || strcmp(v, "1") == 0)) {
		env->boost_name = S_track(t, hb_strdup("boost"));
		env->boost_state = S_track(t, hb_strdup(v[0] == '1' ? "on" : "off"));
	}
	free(v);
}

static void S_read_smt(S_tree *t, hb_env *env)
{
	char *v = S_value(t, "sys/devices/system/cpu/smt/control");
	const char *smt = NULL;

	if (v) {
		if (strcmp(v, "on") == 0)
			smt = "on";
		else if (strcmp(v, "off") == 0 || strcmp(v, "forceoff") == 0)
			smt = "off";
		else if (strcmp(v, "notsupported") == 0 || strcmp(v, "notimplemented") == 0)
			smt = "none";
	} else if ((v = S_cpu_value(t, "sys/devices/system/cpu/cpu%d/topology/"
			"thread_siblings_list", env->cpu)) != NULL) {
		char self[16];
		snprintf(self, sizeof(self), "%d", env->cpu);
		if (strcmp(v, self) == 0) {
			/* a lone thread: no SMT on AArch64 cores; on x86 it may be switched off */
			if (env->arch && strcmp(env->arch, "aarch64") == 0)
				smt = "none";
		} else if (strspn(v, "0123456789,-") == strlen(v)) {
			smt = "on";
		}
	}
	free(v);
	if (smt)
		env->smt = S_track(t, hb_strdup(smt));
}

static void S_read_machine(S_tree *t, hb_env *env, const char *cpuinfo)
{
	char *vendor = S_value(t, "sys/class/dmi/id/sys_vendor");
	char *product = S_value(t, "sys/class/dmi/id/product_name");
	char *version = S_value(t, "sys/class/dmi/id/product_version");
	char *dt = NULL, *xen;
	const char *dmi_hv;
	int aarch64 = env->arch && strcmp(env->arch, "aarch64") == 0;

	/* /proc/device-tree is an absolute link into /sys: read the target below root first */
	if (aarch64 || !env->arch) {
		dt = S_value(t, "sys/firmware/devicetree/base/model");
		if (!dt)
			dt = S_value(t, "proc/device-tree/model");
		if (dt && S_placeholder(dt)) {
			free(dt);
			dt = NULL;
		}
	}
	env->machine = dt ? dt : S_dmi_machine(t, vendor, product, version);

	if (cpuinfo && env->arch) {
		char *flags = S_cpuinfo_get(t, cpuinfo, env->cpu, "flags");
		env->virtual_machine = flags && S_has_word(flags, "hypervisor");
		free(flags);
	}
	if ((dmi_hv = S_dmi_hypervisor(vendor, product)) != NULL) {
		env->virtual_machine = 1;
		env->hypervisor = S_track(t, hb_strdup(dmi_hv));
	}
	if ((xen = S_value(t, "sys/hypervisor/type")) != NULL) {
		env->virtual_machine = 1;
		if (!env->hypervisor)
			env->hypervisor = S_track(t, hb_strdup(strcmp(xen, "xen") == 0 ? "Xen" : xen));
		free(xen);
	}
	free(vendor);
	free(product);
	free(version);
}

/* Under user-mode emulation (qemu-user) /proc/cpuinfo is the host's, but the programs and the
 * code they time are of this build's architecture: name that, and the host's processor as what
 * emulates it. Only for this machine (root "/"): a folder read for a test describes itself. */
static void S_emulated(S_tree *t, hb_env *env, const char *root)
{
	const char *own = hb_own_arch();
	char *host;
	if (!own || !env->arch || strcmp(root, "/") != 0 || strcmp(env->arch, own) == 0)
		return;
	host = env->processor;
	env->processor = S_track(t, hb_sprintf("%s emulated on %s (%s)", own, host ? host :
		"an unknown processor", env->arch));
	free(host);
	free(env->arch);
	env->arch = S_track(t, hb_strdup(own));
}

int hb_env_read(hb_env **out, const char *root, int cpu, const char *cc, int run_tools)
{
	S_tree t = { root, 0 };
	hb_env *env;
	char *cpuinfo = NULL, *text;
	int rc = HB_ERROR;

	*out = NULL;
	if (!root || !hb_is_dir(root))
		return hb_error_set("%s: not a folder to read the machine from", root ? root : "(null)");
	if (cpu < 0)
		return hb_error_set("CPU %d: not a CPU number", cpu);
	env = calloc(1, sizeof(*env));
	if (!env)
		return hb_error_set("out of memory");
	env->cpu = cpu;
	env->min_khz = env->max_khz = env->cur_khz = env->memory_mib = -1;
	env->virtual_machine = -1;

	cpuinfo = S_read(&t, "proc/cpuinfo");
	if (cpuinfo) {
		const char *arch = hb_cpuinfo_arch(cpuinfo);
		if (arch)
			env->arch = S_track(&t, hb_strdup(arch));
		if (arch && strcmp(arch, "aarch64") == 0) {
			char *impl = S_cpuinfo_get(&t, cpuinfo, cpu, "CPU implementer");
			char *part = S_cpuinfo_get(&t, cpuinfo, cpu, "CPU part");
			env->processor = S_arm_name(&t, impl, part);
			free(impl);
			free(part);
		} else if (arch) {
			env->processor = S_cpuinfo_get(&t, cpuinfo, cpu, "model name");
		}
	}
	S_emulated(&t, env, root);
	S_read_machine(&t, env, cpuinfo);
	S_read_cpufreq(&t, env);
	S_read_smt(&t, env);
	env->memory_mib = S_memory_mib(&t);

	if ((text = S_read(&t, "etc/os-release")) == NULL || !(env->os =
			S_os_release_get(&t, text, "PRETTY_NAME"))) {
		free(text);
		if ((text = S_read(&t, "usr/lib/os-release")) != NULL)
			env->os = S_os_release_get(&t, text, "PRETTY_NAME");
	}
	free(text);
	env->kernel = S_value(&t, "proc/sys/kernel/osrelease");

	if (run_tools) {
		char *cc_argv[] = { (char *)(cc ? cc : "cc"), (char *)"--version", NULL };
		char *cmake_argv[] = { (char *)"cmake", (char *)"--version", NULL };
		env->compiler = S_tool_line(&t, cc_argv);
		env->build_tool = S_tool_line(&t, cmake_argv);
	}

	S_warnings(&t, env);
	if (t.oom) {
		hb_error_set("reading the machine below %s: out of memory", root);
		goto out;
	}
	*out = env;
	env = NULL;
	rc = 0;
out:
	free(cpuinfo);
	hb_env_free(env);
	return rc;
}

void hb_env_free(hb_env *env)
{
	size_t i;
	if (!env)
		return;
	free(env->arch);
	free(env->processor);
	free(env->machine);
	free(env->governor);
	free(env->boost_name);
	free(env->boost_state);
	free(env->smt);
	free(env->os);
	free(env->kernel);
	free(env->compiler);
	free(env->build_tool);
	free(env->hypervisor);
	if (env->warnings)
		for (i = 0; env->warnings[i]; i++)
			free(env->warnings[i]);
	free(env->warnings);
	free(env);
}
