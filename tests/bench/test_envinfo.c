/* test_envinfo.c — the machine reader against recorded trees (an Intel server, the arm_1 laptop,
 * a QEMU guest), hand-made corner cases, and this machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "hbmeasure.h"
#include "support.h"

static hb_env *S_read(const char *tree, int cpu)
{
	hb_env *env = NULL;
	char *root = hb_path_join(HBT_FIXTURES "/env", tree);
	cr_assert_eq(hb_env_read(&env, root, cpu, NULL, 0), 0, "%s", hb_error_last());
	cr_assert_not_null(env);
	free(root);
	return env;
}

/* Write text to root/rel, creating the folders on the way. */
static void S_put(const char *root, const char *rel, const char *text, size_t len)
{
	char *path = hb_path_join(root, rel), *dir = hb_strdup(path);
	*strrchr(dir, '/') = 0;
	cr_assert_eq(hb_mkdir_p(dir), 0, "%s", hb_error_last());
	hbt_write(path, text, len);
	free(dir);
	free(path);
}

#define S_PUT(root, rel, text) S_put(root, rel, text, strlen(text))

static size_t S_count(char **v)
{
	size_t n = 0;
	cr_assert_not_null(v, "warnings is always an array");
	while (v[n])
		n++;
	return n;
}

static void S_expect_warning(char **v, const char *part)
{
	size_t i;
	for (i = 0; v[i]; i++)
		if (strstr(v[i], part))
			return;
	cr_expect_fail("no warning mentions \"%s\"", part);
}

static void S_expect_str(const char *got, const char *want, const char *what)
{
	if (!want) {
		cr_expect_null(got, "%s: expected NULL, got \"%s\"", what, got ? got : "");
		return;
	}
	cr_expect_not_null(got, "%s: expected \"%s\", got NULL", what, want);
	if (got)
		cr_expect_str_eq(got, want, "%s", what);
}

Test(envinfo, intel_server_with_pstate_turbo_and_smt)
{
	hb_env *env = S_read("x86_64", 1);

	S_expect_str(env->arch, "x86_64", "arch");
	S_expect_str(env->processor, "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", "processor");
	S_expect_str(env->machine, "Dell Inc. PowerEdge R650", "machine (\"Not Specified\" dropped)");
	cr_expect_eq(env->cpu, 1);
	S_expect_str(env->governor, "powersave", "governor");
	cr_expect_eq(env->min_khz, 800000);
	cr_expect_eq(env->max_khz, 3200000);
	cr_expect_eq(env->cur_khz, 2799934, "the pinned CPU's own frequency");
	S_expect_str(env->boost_name, "turbo", "boost name");
	S_expect_str(env->boost_state, "on", "no_turbo 0 means turbo on");
	S_expect_str(env->smt, "on", "smt");
	cr_expect_eq(env->memory_mib, 263580072LL / 1024);
	S_expect_str(env->os, "Debian GNU/Linux 12 (bookworm)", "os from usr/lib/os-release");
	S_expect_str(env->kernel, "6.1.0-25-amd64", "kernel");
	S_expect_str(env->compiler, NULL, "compiler without run_tools");
	S_expect_str(env->build_tool, NULL, "build tool without run_tools");
	cr_expect_eq(env->virtual_machine, 0);
	S_expect_str(env->hypervisor, NULL, "hypervisor");

	cr_expect_eq(S_count(env->warnings), 3);
	S_expect_warning(env->warnings, "governor of CPU 1 is \"powersave\"");
	S_expect_warning(env->warnings, "Turbo is on");
	S_expect_warning(env->warnings, "SMT is on");
	hb_env_free(env);
}

Test(envinfo, arm_1_laptop_qualcomm_oryon)
{
	hb_env *env = S_read("aarch64", 2);

	S_expect_str(env->arch, "aarch64", "arch");
	S_expect_str(env->processor, "Qualcomm Oryon", "processor");
	S_expect_str(env->machine, "ASUS Vivobook S 15", "machine from the device tree");
	cr_expect_eq(env->cpu, 2);
	S_expect_str(env->governor, "performance", "governor");
	cr_expect_eq(env->min_khz, 2710000, "scaling_min_freq, not cpuinfo_min_freq");
	cr_expect_eq(env->max_khz, 2710000, "scaling_max_freq, not cpuinfo_max_freq");
	cr_expect_eq(env->cur_khz, 2710000);
	S_expect_str(env->boost_name, "boost", "boost name");
	S_expect_str(env->boost_state, "off", "boost state");
	S_expect_str(env->smt, "none", "smt notsupported");
	cr_expect_eq(env->memory_mib, 30562);
	S_expect_str(env->os, "Ubuntu 26.04.1 LTS", "os");
	S_expect_str(env->kernel, "7.0.0-34-generic", "kernel");
	S_expect_str(env->compiler, NULL, "compiler");
	S_expect_str(env->build_tool, NULL, "build tool");
	cr_expect_eq(env->virtual_machine, 0);
	S_expect_str(env->hypervisor, NULL, "hypervisor");
	cr_expect_eq(S_count(env->warnings), 0, "set up for stable figures: %s",
		env->warnings[0] ? env->warnings[0] : "");
	hb_env_free(env);
}

Test(envinfo, qemu_guest_without_cpufreq)
{
	hb_env *env = S_read("vm", 0);

	S_expect_str(env->arch, "x86_64", "arch");
	S_expect_str(env->processor, "Intel Xeon Processor (Icelake)", "processor");
	S_expect_str(env->machine, "QEMU Standard PC (Q35 + ICH9, 2009)", "machine");
	S_expect_str(env->governor, NULL, "governor");
	cr_expect_eq(env->min_khz, -1);
	cr_expect_eq(env->max_khz, -1);
	cr_expect_eq(env->cur_khz, -1);
	S_expect_str(env->boost_name, NULL, "boost name");
	S_expect_str(env->boost_state, NULL, "boost state");
	S_expect_str(env->smt, "none", "smt");
	cr_expect_eq(env->memory_mib, 4005612LL / 1024);
	S_expect_str(env->os, "Ubuntu 24.04.1 LTS", "os");
	S_expect_str(env->kernel, "6.8.0-45-generic", "kernel");
	cr_expect_eq(env->virtual_machine, 1);
	S_expect_str(env->hypervisor, "QEMU", "hypervisor");

	cr_expect_eq(S_count(env->warnings), 2);
	S_expect_warning(env->warnings, "CPU 0 has no cpufreq governor");
	S_expect_warning(env->warnings, "virtual machine (QEMU)");
	hb_env_free(env);
}

Test(envinfo, a_cpu_without_cpufreq_files_reads_as_unknown)
{
	hb_env *env = S_read("aarch64", 5);

	S_expect_str(env->processor, "Qualcomm Oryon", "every entry agrees");
	S_expect_str(env->governor, NULL, "governor");
	cr_expect_eq(env->min_khz, -1);
	cr_expect_eq(env->max_khz, -1);
	cr_expect_eq(env->cur_khz, -1);
	S_expect_warning(env->warnings, "CPU 5 has no cpufreq governor");
	hb_env_free(env);
}

Test(envinfo, empty_tree_gives_null_and_minus_one)
{
	char *root = hbt_tmpdir("env-empty");
	hb_env *env = NULL;

	cr_assert_eq(hb_env_read(&env, root, 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->arch, NULL, "arch");
	S_expect_str(env->processor, NULL, "processor");
	S_expect_str(env->machine, NULL, "machine");
	S_expect_str(env->governor, NULL, "governor");
	cr_expect_eq(env->min_khz, -1);
	cr_expect_eq(env->max_khz, -1);
	cr_expect_eq(env->cur_khz, -1);
	S_expect_str(env->boost_name, NULL, "boost name");
	S_expect_str(env->boost_state, NULL, "boost state");
	S_expect_str(env->smt, NULL, "smt");
	cr_expect_eq(env->memory_mib, -1);
	S_expect_str(env->os, NULL, "os");
	S_expect_str(env->kernel, NULL, "kernel");
	cr_expect_eq(env->virtual_machine, -1, "nothing to tell a machine from a guest");
	S_expect_str(env->hypervisor, NULL, "hypervisor");
	cr_expect_eq(S_count(env->warnings), 1, "only the unknown governor");
	hb_env_free(env);

	/* a bare cpuinfo without the hypervisor flag: known to be no virtual machine */
	S_PUT(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
		"model name\t: AMD   Ryzen 9 7950X 16-Core Processor   \nflags\t\t: fpu sse2\n\n");
	S_PUT(root, "proc/meminfo", "MemTotal: garbage kB\n");
	S_PUT(root, "etc/os-release", "NAME=Debian\n");
	cr_assert_eq(hb_env_read(&env, root, 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->arch, "x86_64", "arch");
	S_expect_str(env->processor, "AMD Ryzen 9 7950X 16-Core Processor", "spaces collapsed");
	cr_expect_eq(env->virtual_machine, 0);
	cr_expect_eq(env->memory_mib, -1, "an unreadable MemTotal");
	S_expect_str(env->os, NULL, "os-release without PRETTY_NAME");
	hb_env_free(env);
	free(root);
}

Test(envinfo, aarch64_names_come_from_the_pinned_entry)
{
	char *root = hbt_tmpdir("env-biglittle");
	hb_env *env = NULL;

	S_PUT(root, "proc/cpuinfo",
		"processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd05\n\n"
		"processor\t: 1\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0b\n\n"
		"processor\t: 2\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xfff\n\n"
		"processor\t: 3\nCPU implementer\t: 0x99\nCPU architecture: 8\nCPU part\t: 0x123\n\n");
	S_PUT(root, "sys/class/dmi/id/sys_vendor", "QEMU\n");
	S_PUT(root, "sys/class/dmi/id/product_name", "KVM Virtual Machine\n");
	S_PUT(root, "sys/class/dmi/id/product_version", "virt-8.2\n");
	S_PUT(root, "sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");

	cr_assert_eq(hb_env_read(&env, root, 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->arch, "aarch64", "arch");
	S_expect_str(env->processor, "Arm Cortex-A55", "little core");
	S_expect_str(env->smt, NULL, "no control file and no siblings list for CPU 0");
	cr_expect_eq(env->virtual_machine, 1, "DMI names KVM");
	S_expect_str(env->hypervisor, "KVM", "hypervisor");
	S_expect_str(env->machine, "QEMU KVM Virtual Machine virt-8.2", "DMI without a device tree");
	S_expect_warning(env->warnings, "virtual machine (KVM)");
	hb_env_free(env);

	cr_assert_eq(hb_env_read(&env, root, 1, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->processor, "Arm Cortex-A76", "big core");
	S_expect_str(env->smt, "none", "a lone thread on AArch64");
	hb_env_free(env);

	cr_assert_eq(hb_env_read(&env, root, 2, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->processor, "Arm part 0xfff", "known implementer, unknown part");
	hb_env_free(env);

	cr_assert_eq(hb_env_read(&env, root, 3, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->processor, "implementer 0x99 part 0x123", "unknown implementer");
	hb_env_free(env);

	cr_assert_eq(hb_env_read(&env, root, 7, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->processor, NULL, "no entry for CPU 7 and the entries disagree");
	hb_env_free(env);
	free(root);
}

Test(envinfo, dmi_placeholders_and_boost)
{
	char *root = hbt_tmpdir("env-dmi");
	hb_env *env = NULL;

	S_PUT(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
		"model name\t: Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz\nflags\t\t: fpu\n\n");
	S_PUT(root, "sys/class/dmi/id/sys_vendor", "To Be Filled By O.E.M.\n");
	S_PUT(root, "sys/class/dmi/id/product_name", "To Be Filled By O.E.M.\n");
	S_PUT(root, "sys/class/dmi/id/product_version", "To Be Filled By O.E.M.\n");
	S_PUT(root, "sys/devices/system/cpu/cpufreq/boost", "1\n");
	S_PUT(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "schedutil\n");
	S_PUT(root, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", "800000\n");
	S_PUT(root, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "4600000\n");
	S_PUT(root, "sys/devices/system/cpu/smt/control", "forceoff\n");
	cr_assert_eq(hb_env_read(&env, root, 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->machine, NULL, "placeholders only");
	cr_expect_eq(env->min_khz, 800000, "cpuinfo_min_freq when scaling_min_freq is absent");
	cr_expect_eq(env->max_khz, 4600000, "cpuinfo_max_freq when scaling_max_freq is absent");
	cr_expect_eq(env->cur_khz, -1);
	S_expect_str(env->boost_name, "boost", "boost name");
	S_expect_str(env->boost_state, "on", "boost state");
	S_expect_str(env->smt, "off", "forceoff");
	cr_expect_eq(S_count(env->warnings), 2);
	S_expect_warning(env->warnings, "\"schedutil\", not \"performance\"");
	S_expect_warning(env->warnings, "Boost is on");
	hb_env_free(env);

	/* a vendor placeholder is dropped, a model name in product_version kept, a revision not */
	S_PUT(root, "sys/class/dmi/id/sys_vendor", "LENOVO\n");
	S_PUT(root, "sys/class/dmi/id/product_name", "20XW0055GE\n");
	S_PUT(root, "sys/class/dmi/id/product_version", "ThinkPad X1 Carbon Gen 9\n");
	cr_assert_eq(hb_env_read(&env, root, 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->machine, "LENOVO 20XW0055GE ThinkPad X1 Carbon Gen 9", "Lenovo");
	hb_env_free(env);
	S_PUT(root, "sys/class/dmi/id/sys_vendor", "System manufacturer\n");
	S_PUT(root, "sys/class/dmi/id/product_name", "ROG STRIX Z390-E GAMING\n");
	S_PUT(root, "sys/class/dmi/id/product_version", "Rev 1.xx\n");
	cr_assert_eq(hb_env_read(&env, root, 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->machine, "ROG STRIX Z390-E GAMING", "placeholder vendor, revision");
	hb_env_free(env);
	free(root);
}

Test(envinfo, refuses_a_missing_root_and_a_negative_cpu)
{
	hb_env *env = (hb_env *)1;
	cr_expect_lt(hb_env_read(&env, HBT_FIXTURES "/env/no-such-tree", 0, NULL, 0), 0);
	cr_expect_null(env);
	cr_expect(strstr(hb_error_last(), "no-such-tree") != NULL, "%s", hb_error_last());
	cr_expect_lt(hb_env_read(&env, HBT_FIXTURES "/env/x86_64", -1, NULL, 0), 0);
	hb_env_free(NULL);
}

Test(envinfo, reads_this_machine)
{
	hb_env *env = NULL;
	struct utsname u;

	/* the machine the program runs as (under qemu-user: the emulated one, not the host's
	 * /proc/cpuinfo) */
	cr_assert_eq(uname(&u), 0);
	cr_assert_eq(hb_env_read(&env, "/", 0, NULL, 0), 0, "%s", hb_error_last());
	S_expect_str(env->arch, u.machine, "arch of this machine");
	cr_expect_gt(env->memory_mib, 0);
	cr_expect_not_null(env->kernel);
	cr_expect_null(env->compiler, "tools only run when asked");
	hb_env_free(env);
}

Test(envinfo, runs_the_compiler_and_cmake_when_asked)
{
	hb_env *env = NULL;

	cr_assert_eq(hb_env_read(&env, "/", 0, "gcc", 1), 0, "%s", hb_error_last());
	cr_assert_not_null(env->compiler);
	/* the first line gcc --version prints, as a shell would run it */
	{
		FILE *p = popen("gcc --version", "r");
		char line[256] = "";
		cr_assert_not_null(p);
		cr_assert_not_null(fgets(line, sizeof(line), p));
		pclose(p);
		line[strcspn(line, "\n")] = 0;
		cr_expect_str_eq(env->compiler, line);
	}
	cr_assert_not_null(env->build_tool);
	cr_expect(strncmp(env->build_tool, "cmake version ", 14) == 0, "%s", env->build_tool);
	hb_env_free(env);

	cr_assert_eq(hb_env_read(&env, "/", 0, "/nonexistent/cc", 1), 0, "%s", hb_error_last());
	cr_expect_null(env->compiler, "a compiler that cannot run gives NULL");
	hb_env_free(env);
}
