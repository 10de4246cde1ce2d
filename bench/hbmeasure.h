/* hbmeasure.h — measurement: what the machine is (envinfo.c), as system.json and every record
 * describe it. The timing itself is hashbench-measure's (measure.c, on hbtiming.h). */
#ifndef HB_MEASURE_H
#define HB_MEASURE_H


/* ---- the machine (envinfo.c) ---- */

/* What system.json says about the machine. Strings are NULL and numbers -1 when a value cannot
 * be read: never a guess. */
typedef struct {
	char *arch;          /* "x86_64" or "aarch64" (from the tree, not from this process) */
	char *processor;     /* model name; on AArch64 mapped from implementer/part numbers */
	char *machine;       /* DMI or device-tree name; NULL when the firmware gives none */
	int cpu;             /* the CPU the campaign pins to */
	char *governor;      /* cpufreq governor of that CPU */
	long long min_khz, max_khz, cur_khz;
	char *boost_name;    /* "boost" (cpufreq/boost) or "turbo" (intel_pstate/no_turbo) */
	char *boost_state;   /* "on" or "off" */
	char *smt;           /* "on", "off" or "none" (not supported) */
	long long memory_mib;
	char *os;            /* PRETTY_NAME of os-release */
	char *kernel;        /* kernel release */
	char *compiler;      /* first line of `<cc> --version` */
	char *build_tool;    /* first line of `cmake --version` */
	int virtual_machine; /* 1, 0, or -1 when unknown */
	char *hypervisor;    /* its name when known (DMI vendor or cpuinfo) */
	char **warnings;     /* why figures may be unstable; NULL-terminated */
} hb_env;

/* Read the machine below root ("/" for this one; tests pass recorded trees). cc and cmake are
 * run for the compiler and build tool only when run_tools is set. */
int hb_env_read(hb_env **out, const char *root, int cpu, const char *cc, int run_tools);
void hb_env_free(hb_env *env);

#endif
