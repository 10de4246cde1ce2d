/* pages.h — the page builders: each kind of page fills a page model from the evidence and its
 * figures — the algorithm page (pages.c), the site index, system index and method page
 * (page_index.c), the comparison page and the "On other systems" table (compare.c) — from the
 * parts they share: the prose of templates/ (prose.c), tables and warnings (page_parts.c), the
 * headline's marks (page_headline.c), memory (page_memory.c), the machine-speed trace
 * (page_sentinel.c), a system another tool measured (imported_site.c), a SUPERCOP primitive
 * (page_supercop.c, its compiler lines named short by compiler_names.c) and the eBASH-style table
 * of a system (page_ebash.c). Nothing here knows the site's files. */
#ifndef HG_PAGES_H
#define HG_PAGES_H

#include "figures.h"
#include "model.h"

/* ---- the shared parts ---- */

/* Room for one formatted figure (hg_fmt_* of genutil.h). */
#define HG_FMT 128

/* Value of a {placeholder}, or NULL to leave it as written. */
typedef const char *(*hg_lookup_fn)(void *ctx, const char *name);

int hg_prose(hg_arena *a, hg_node *parent, const char *markdown, hg_lookup_fn lookup, void *ctx);
int hg_prose_inline(hg_arena *a, hg_node *parent, const char *markdown, hg_lookup_fn lookup,
	void *ctx);

/* The breadcrumb of a page one folder below the site's index: "Performance measurements",
 * linked; the caller adds what follows. */
hg_node *hg_index_breadcrumb(hg_arena *a);
/* A link to the page of algorithm id across systems, from a page whose path to the site's root
 * is root ("" or "../"), reading text, its title "<id> on every system" (unless that is
 * the text). */
hg_node *hg_add_across_link(hg_arena *a, hg_node *parent, const char *root, const char *id,
	const char *text);
/* The breadcrumb of a page of system s, below the site's index: "Performance measurements ›
 * <s, linked to its index>"; the caller adds what follows. */
hg_node *hg_system_breadcrumb(hg_arena *a, const hg_system *s);
/* The class of a KAT result's span: pass, fail, unverified (nothing to compare with), or NULL
 * (SKIPPED). */
const char *hg_result_class(const char *result);
/* A span marked as a warning, holding text. */
hg_node *hg_add_warning(hg_arena *a, hg_node *parent, const char *text);
/* A table with its header row (numeric: which columns are right-aligned, NULL: none). */
hg_node *hg_add_table(hg_arena *a, hg_node *parent, const char *const *head, const int *numeric);
/* "Download every figure of this system, with <what>, from the parts below: …", then the list of
 * s's parts (a page of s: one folder down). */
void hg_add_downloads(hg_arena *a, hg_node *body, const hg_system *s, const char *what);
/* "JSON · CSV": links to the index of the downloads from a page one folder down. */
void hg_add_results_index(hg_arena *a, hg_node *para);
/* A row of two plain cells. */
void hg_add_row2(hg_arena *a, hg_node *t, const char *k, const char *v);
/* The instance in code, then " (impl)" unless it is the reference. */
void hg_add_instance_cell(hg_arena *a, hg_node *row, const char *instance, const char *impl);
/* A system's campaign: "2026-12-03 21:30 – 22:05 UTC" (the end's date only when it differs),
 * or "not recorded". */
const char *hg_campaign_dates(hg_arena *a, const hg_system *s);
/* s, or "not available" when it is NULL. */
const char *hg_or_na(const char *s);
/* "x86-64", "AArch64", the name as written, or "an unknown architecture". */
const char *hg_arch_name(const char *arch);
/* The environment table of a system (DESIGN.md, the environment rows). */
void hg_env_rows(hg_arena *a, hg_node *parent, const hg_system *s);
/* One row of an evidence index table (instance, item, file linked to its copy, sha256 with how
 * it compares with SHA256SUMS); returns the sha256 cell. */
hg_node *hg_evidence_row(hg_arena *a, hg_node *t, const hg_system *s, const hg_evfile *f,
	const char *inst, const char *item);

/* ---- SUPERCOP's compiler lines named short in tables (compiler_names.c) ---- */

/* The compiler lines a page shows, collected before its tables are made. */
typedef struct hg_compiler_names hg_compiler_names;
hg_compiler_names *hg_compiler_names_new(hg_arena *a);
/* Add line (NULL: nothing; each line once). */
void hg_compiler_names_add(hg_arena *a, hg_compiler_names *cn, const char *line);
/* The short name of line among cn's: the compiler and its -O and -m options other than
 * -march=native and -mtune=native ("gcc -O3"); the whole line where two lines of cn would share
 * a name. */
const char *hg_compiler_name(hg_arena *a, const hg_compiler_names *cn, const char *line);
/* <code class="compiler" title="LINE">NAME</code> into parent. */
hg_node *hg_add_compiler(hg_arena *a, hg_node *parent, const hg_compiler_names *cn,
	const char *line);
/* Under a table: each short name of cn with its whole line ("`gcc -O3` is `gcc -march=…`"). */
void hg_compiler_legend(hg_arena *a, hg_node *body, const hg_compiler_names *cn);

/* ---- the unit of a system's figures on its pages (page_units.c) ---- */

/* text with the whole words "cycles" and "Cycles" named by s's unit (hg_unit_name): itself on a
 * system whose figures are cycles, "ticks/byte" for "cycles/byte" on one whose are ticks. */
const char *hg_unit_text(hg_arena *a, const hg_system *s, const char *text);
/* The header row and title of a table named by s's unit, as hg_unit_text. */
void hg_unit_header(hg_arena *a, const hg_system *s, hg_node *table);
/* A figure of system s in a table headed in cur's unit: text, followed by s's unit when the two
 * differ ("31.2 ticks" under "cycles/byte"); "—" stays as it is. */
const char *hg_unit_cell(hg_arena *a, const hg_system *s, const hg_system *cur,
	const char *text);
/* The environment's counter row: which counter was read and what its readings are
 * ("cntvct at 62.5 MHz: not the core's clock; the figures are counter ticks"). */
const char *hg_counter_row(hg_arena *a, const hg_system *s);
/* The method page's placeholders of the counter: counter, counter-hz, counter-unit (how its
 * readings became the figures), unit, counter-read, empty-call; NULL for any other name. */
const char *hg_counter_lookup(hg_arena *a, const hg_system *s, const char *name);

/* ---- the headline figure on the pages (page_headline.c) ---- */

/* The marks of a page's figures: † on a spread above the limit (unstable); ‡ on a headline figure
 * whose interval is wide or unconfirmed, or (without an interval) that is disturbed; and a
 * headline figure shown without an interval, which the legend says once. */
#define HG_MARK_UNSTABLE 1
#define HG_MARK_DISTURBED 2
#define HG_MARK_WIDE 4
#define HG_MARK_UNCONFIRMED 8
#define HG_MARK_NO_INTERVAL 16
#define HG_MARK_PAIRED_WIDE 32 /* ‡ on a paired ratio whose pairs' interval is wide */
/* Append to cell the † of a spread at bytes above limit (a small span whose title says what it
 * means there); returns HG_MARK_UNSTABLE. */
int hg_mark_spread(hg_arena *a, hg_node *cell, unsigned long long bytes, double spread_pct,
	double limit);
/* Append to cell the ‡ of a headline figure when it has one; returns the marks of h. */
int hg_mark_headline(hg_arena *a, hg_node *cell, const hg_headline_fig *h);
/* A headline figure's cell: per byte (or per call) with its interval's half-width, "9.2 ± 0.1",
 * the figure alone when it has none, and its ‡; returns its marks. */
int hg_headline_cell(hg_arena *a, hg_node *row, const hg_headline_fig *h, int per_call);
/* The same for a row of figures; "—" when f is NULL. */
int hg_fig_cell(hg_arena *a, hg_node *row, const hg_fig *f, int per_call);
/* The cell of the ratio of x to ref per byte ("1.19" and times, "—" when either is missing),
 * ± the half-width of its interval (hg_ratio_of) when both have one: "1.19 ± 0.01×"; when they
 * are within noise (hg_within_noise), "≈ 1.00 ± 0.01× (within noise)" with a title saying why,
 * its figures in unit (hg_unit_name of their system) per byte. A paired ratio's title says it is
 * one, and a wide one is marked ‡ (its title naming ref the yardstick); returns the marks
 * (HG_MARK_PAIRED_WIDE or 0). */
int hg_ratio_cell(hg_arena *a, hg_node *row, const hg_headline_fig *x,
	const hg_headline_fig *ref, const char *times, const char *unit);
/* The line under a table that explains the marks in used (nothing when used is 0); the note on
 * figures without an interval only while *noted is 0 (noted NULL: always), then sets it, so
 * that a page says it once. */
void hg_marks_legend(hg_arena *a, hg_node *body, int used, double limit, int *noted);

/* Section 4's sentence on the headline column. */
void hg_headline_perf_note(hg_arena *a, hg_node *para, const hg_system *s);
/* The method page's placeholders: estimator, passes, precision, noise-floor, sentinel-limit,
 * limit-floor, limit-source ("not recorded" for earlier evidence); NULL for any other name. */
const char *hg_headline_lookup(hg_arena *a, const hg_system *s, const char *name);

/* ---- exact memory and the machine's speed on the pages (page_memory.c, page_sentinel.c) */

/* Section 5: the columns after the guide's (stack, heap peak, allocations), their cells of a
 * record ("—" when not recorded) and the paragraph above the table. */
#define HG_MEMORY_NCOLS 3
extern const char *const hg_memory_head[HG_MEMORY_NCOLS + 1];
void hg_memory_cells(hg_arena *a, hg_node *row, const hg_memory *m);
void hg_memory_para(hg_arena *a, hg_node *p);
/* The comparison page: stack and heap peak of a row. */
void hg_memory_fig_cells(hg_arena *a, hg_node *row, const hg_fig *f);

/* The method page's "Machine speed during the campaign" part: workload, limit, counts, the
 * trace chart (sentinel.svg) and sentinel.json in an evidence table; one sentence when the
 * campaign was not traced. */
void hg_sentinel_method(hg_arena *a, hg_node *body, const hg_system *s);
/* The trace chart of s as SVG text (caller frees); -1 with the error stored. */
int hg_sentinel_svg(char **out, size_t *len, const hg_system *s);

/* ---- the pages ---- */

typedef struct {
	const char *attribution; /* templates/attribution.md */
	const char *method;      /* templates/method.md */
	const char *generator;   /* "hashgen 0.1.0 (git abc1234)" */
} hg_texts;

/* The page of an algorithm on system s. all: its rows on every system that has it (s among
 * them), for the "On other systems" table; chart: the page shows <id>.svg. */
hg_page *hg_page_algorithm(const hg_data *d, const hg_system *s, const char *id,
	const hg_sysalg *sa, const hg_yardsticks *y, const hg_texts *t, const hg_sysfigs *all,
	size_t nall, int chart);
/* What the site's index shows of a system beyond its headlines, read back from its pages. */
typedef struct {
	const hg_fig *const *rows; /* the rows the outputs spanning the field read */
	size_t nrows;
	long long kats[HG_KAT_TALLY]; /* its libraries' KAT results, counted */
} hg_front_sys;

/* headlines[system * nids + algorithm]: the row of each algorithm's headline on each system
 * (hg_figs_headline), NULL where there is none; sys[system]: the rest the index shows of it. */
hg_page *hg_page_index(const hg_data *d, const char *const *ids, size_t nids,
	const hg_fig *const *headlines, const hg_front_sys *sys, const hg_texts *t);

/* ---- the front page's account of the site (page_front.c) ---- */

/* What the site is and how to check it: two paragraphs. */
void hg_front_intro(hg_arena *a, hg_node *body, const hg_data *d);
/* "Systems": one row each, its processor, counter and unit, OS and compiler, campaign, profile,
 * algorithms, implementations verified, unverified, failed and not run, and its pages. */
void hg_front_systems(hg_arena *a, hg_node *body, const hg_data *d, const hg_front_sys *sys);
/* "The fastest on each system": per digest length, each system's fastest implementations with
 * their intervals and ranks as its comparison page gives them; returns the marks used. */
int hg_front_field(hg_arena *a, hg_node *body, const hg_data *d, const hg_front_sys *sys);
hg_page *hg_page_system(const hg_data *d, const hg_system *s, const char *const *ids,
	size_t nids, const hg_fig *const *headlines, const hg_texts *t);
hg_page *hg_page_method(const hg_data *d, const hg_system *s, const hg_texts *t);

/* ---- a system measured by another tool and imported, on its pages (imported_site.c); each
 * adds nothing for a system hashbench measured ---- */

/* The footers' attribution: "measured by hashbench 0.1.0 (git abc1234)", or "measured with
 * ngcc-harness (git 43b4800b0f7d) and imported by hashbench 0.1.0 (git abc1234)". */
const char *hg_measured_by(hg_arena *a, const hg_system *s);
/* The algorithm page's attribution paragraph: who measured, who imported, the method page. */
void hg_imported_attribution(hg_arena *a, hg_node *para, const hg_system *s);
/* The paragraph under the performance table when the tool timed no single calls; 1 when it was
 * added (instead of hashbench's own). */
int hg_imported_perf_note(hg_arena *a, hg_node *body, const hg_system *s, hg_record **recs,
	size_t n);
/* How the tool checked the KAT files, from the summaries' notes. */
void hg_imported_kat_note(hg_arena *a, hg_node *body, const hg_system *s, const hg_sysalg *sa);
/* The evidence index: a sentence on the originals; what an original is (0: not one); the
 * warnings of a record whose original is missing or of an original no record names as it is. */
void hg_imported_evidence_note(hg_arena *a, hg_node *para, const hg_system *s);
int hg_imported_describe(hg_arena *a, const hg_system *s, const char *rel, const char **inst,
	const char **item);
void hg_imported_check(hg_arena *a, hg_node *cell, const hg_system *s, const hg_sysalg *sa,
	const hg_evfile *f);
/* The site index: which systems were imported, each linked to its method page. */
void hg_imported_index_note(hg_arena *a, hg_node *body, const hg_data *d);
/* The method page's body: the tool's own method page rendered by cmark, what protected the
 * machine, and the system's originals with their SHA-256. */
void hg_imported_method(hg_arena *a, hg_node *body, const hg_system *s);

/* ---- a SUPERCOP crypto_hash primitive on its algorithm page (page_supercop.c) ---- */

/* Is the algorithm a SUPERCOP primitive (its catalog entry or a KAT summary says so)? */
int hg_supercop_page(const hg_entry *e, const hg_sysalg *sa);
/* Section 1's lines on SUPERCOP: version, designers, each implementation (kats, in page order)
 * with its path, implementors and the SHA-256 of its sources. e may be NULL. */
void hg_supercop_basic(hg_arena *a, hg_node *body, const char *id, const hg_entry *e,
	hg_kat *const *kats, size_t nkats);
/* Section 3 after its heading: the two checksums of each implementation, expected and obtained,
 * with the compiler setting used; the settings tried where there were several (try's figure in
 * s's unit); the implementations not run here with their reasons. */
void hg_supercop_kat(hg_arena *a, hg_node *body, const hg_system *s, const hg_entry *e,
	const hg_sysalg *sa, hg_kat *const *kats, size_t nkats);

/* ---- one algorithm across every system (page_across.c) ---- */

/* The site's folder of those pages (no system is named so: data/algorithms is the catalog). */
#define HG_ACROSS_DIR "algorithms"
/* How many systems measured algorithm id; whether it has a page across them (two or more). */
size_t hg_across_count(const hg_data *d, const char *id);
int hg_across_has(const hg_data *d, const char *id);
/* The page algorithms/<id>.html from the rows of every system that has id (all, in the site's
 * order of the systems): the systems, each library's KAT result on each, its figures at each
 * message size side by side, and <id>.svg when chart. */
hg_page *hg_page_across(const hg_data *d, const char *id, const hg_sysfigs *all, size_t nall,
	const hg_texts *tx, int chart);
/* That chart: a line per system and library, the unit of each named where they differ. */
int hg_chart_across(char **out, size_t *len, const hg_data *d, const char *id,
	const hg_sysfigs *all, size_t nall);

/* ---- the eBASH-style table of a system (page_ebash.c) ---- */

/* The sizes of its columns: "long" (65536 B), then eBASH's 4096, 1536, 576, 64 and 8 B. */
#define HG_EBASH_NSIZES 6
extern const unsigned long long hg_ebash_sizes[HG_EBASH_NSIZES];
/* One row per algorithm instance of system s (rows: its figures as hg_page_compare takes them;
 * ids: every algorithm id, those of s without a timed figure get a row of their own), its fastest
 * implementation by the headline at the longest size measured, cycles per byte at each size. */
hg_page *hg_page_ebash(const hg_data *d, const hg_system *s, const hg_fig *const *rows,
	size_t n, const char *const *ids, size_t nids, const hg_texts *tx);

/* ---- comparing the field (compare.c) ---- */

/* Where a page's SVG files go as they are drawn, to be written beside it: put(ctx, name, svg,
 * len) with name such as "compare-256.svg"; 0, or -1 with the error stored. */
typedef struct {
	int (*put)(void *ctx, const char *name, const char *svg, size_t len);
	void *ctx;
	int failed;      /* a chart could not be drawn or put */
} hg_svgsink;

/* Cycles/byte against message size of an algorithm's rows on a system (in page order), with the
 * system's yardsticks as baselines. */
int hg_chart_page(char **out, size_t *len, const hg_system *s, const char *id, const char *name,
	const hg_fig *figs, size_t n, const hg_yardsticks *y);

/* "On other systems": cycles/byte at 65536 B and cycles at 32 B of each library on every system
 * in all (those that have the algorithm, cur among them); noted as hg_marks_legend's. */
void hg_section_other_systems(hg_arena *a, hg_node *body, const char *id, const hg_system *cur,
	const hg_sysfigs *all, size_t nall, int *noted);

/* The comparison page of a system from its rows (algorithm by algorithm, each in page order);
 * the bar chart of each group goes to charts as it is drawn, named as the page links it. */
hg_page *hg_page_compare(const hg_data *d, const hg_system *s, const hg_fig *const *rows,
	size_t n, const hg_yardsticks *y, const hg_texts *tx, hg_svgsink *charts);

#endif
