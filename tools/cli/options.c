/* SPDX-License-Identifier: MIT */
/*
 * options.c — getopt_long over qcount's options, strict number parsing.
 * Every rejection names the offending word, so a one-line error says what
 * to fix.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "quote.h"

/* Where --help sends bug reports: the build's QC_BUG_ADDRESS (CMake). */
#ifndef QC_BUG_ADDRESS
#define QC_BUG_ADDRESS "qcount@example.org"
#endif

const char qca_usage_text[] =
    "Usage: qcount [OPTION]... N\n"
    "  or:  qcount [OPTION]... FIRST-LAST\n"
    "Count the solutions of the N-Queens problem on an N x N board (1 <= N <= 32),\n"
    "or on every board of a range, one line 'N total' each.\n"
    "\n"
    "  -t, --threads=K     count on K threads (default: $OMP_NUM_THREADS, else\n"
    "                      one per physical core this process may use)\n"
    "      --no-bind       do not pin each thread to its own core\n"
    "      --smt           also use SMT siblings (hyper-threads): by default one\n"
    "                      thread per hardware thread, each pinned to its own\n"
    "                      (without it, one per physical core)\n"
    "  -e, --engine=NAME   counting engine: join (meet in the middle, the\n"
    "                      default from N=14), eightfold (all 8 symmetries\n"
    "                      of the board, the default below 14) or halving\n"
    "                      (mirror only); dlx and brute are slow oracles\n"
    "      --plan=P        count with the join plan that board size P gets,\n"
    "                      scaled to N (default P = N): the record sizes' paths\n"
    "                      on a board whose count is known (the join engine)\n"
    "  -u, --unique        also print, on a second line, the solutions distinct\n"
    "                      under rotation and reflection (fundamental solutions)\n"
    "  -s, --stats         print the search's steps (queens placed, pairs tested),\n"
    "                      steps/s, seconds, work units and engine on stderr\n"
    "  -j, --json          print one JSON object a line instead of the bare total\n"
    "                      (with a \"unique\" field when --unique is given)\n"
    "      --format=bfile  print 'N total' lines, an OEIS b-file (with --unique:\n"
    "                      of the fundamental counts)\n"
    "  -c, --check         compare every total (and unique count) with OEIS\n"
    "                      A000170 (and A002562): exit status 1 at the first\n"
    "                      that differs; a note for N > 27, which have none\n"
    "      --checkpoint=FILE  record each finished work unit in the ledger FILE;\n"
    "                      the same command run again resumes from it (one N)\n"
    "      --part=K/M      count only part K of M (1 <= K <= M), into the ledger\n"
    "                      of --checkpoint: parts of about equal work, the same\n"
    "                      on any machine; 'qcount merge' adds the parts' ledgers\n"
    "      --progress      show the progress line on stderr even when it is not\n"
    "                      a terminal (by default: only on a terminal)\n"
    "  -q, --quiet         never show the progress line\n"
    "\n"
    "Solutions (columns are numbered 1 to N, rows top to bottom):\n"
    "  qcount N --list [--limit=K] [--format=cols|board] [--unique]\n"
    "                      stream the solutions in lexicographic order, one line\n"
    "                      of columns each (or a board of Q and .); --unique: one\n"
    "                      canonical solution per symmetry class, with the size\n"
    "                      of its class; --limit: stop after K\n"
    "  qcount N --svg=FILE [--list ...] [--svg-per-row=K] [--svg-square=PX]\n"
    "         [--svg-colors=LIGHT,DARK,QUEEN]\n"
    "                      draw the listed solutions as a grid of boards in FILE\n"
    "  qcount --solve N [--random [--seed=S]]\n"
    "                      one solution for any N up to 10^9 (none for N=2, 3:\n"
    "                      exit status 1); --random: a random one by local\n"
    "                      search, the same for the same seed\n"
    "  qcount --verify [COLUMNS...]\n"
    "                      check placements (the words, or stdin: one per line):\n"
    "                      'valid' and status 0, or the first pair of queens that\n"
    "                      attack each other and status 1\n"
    "  -h, --help          show this help and exit\n"
    "  -V, --version       show the version and exit\n"
    "\n"
    "The total goes to stdout alone on one line; errors go to stderr with exit\n"
    "status 2.  SIGINT and SIGTERM stop the count cleanly (exit 130 and 143);\n"
    "with --checkpoint, the units finished so far are kept for the next run.\n"
    "Started by mpirun or srun, qcount counts across the job's ranks (threads\n"
    "per rank as above) and rank 0 alone prints; set QCOUNT_MPI=0 to count alone.\n"
    "\n"
    "Ledgers (only read; their options in qcount(1)):\n"
    "  qcount merge LEDGER...  the total of ledgers (the parts of a count) that\n"
    "                      hold every unit once; exit status 1 and no total if a\n"
    "                      unit is missing or has two tallies\n"
    "  qcount audit LEDGER     count a seeded random sample of its units again by\n"
    "                      another path and compare: another level and the AND\n"
    "                      loop, or a search from the units' cases alone\n"
    "  qcount show LEDGER      its records: unit, tally, engine, ISA level, host,\n"
    "                      CPU seconds, time finished; the fingerprint, coverage\n"
    "  qcount status LEDGER... a run of parts as it goes: coverage, solutions so\n"
    "                      far, rate per host, time left, silent parts, total\n"
    "  qcount unit N U         what unit U of the join plan of N counts: weighted\n"
    "                      cases, each row's columns (--plan=P, --json)\n"
    "\n"
    "Report bugs to: " QC_BUG_ADDRESS "\n";

enum { OPT_NO_BIND = 256, OPT_SMT, OPT_CHECKPOINT, OPT_PROGRESS, OPT_PART, OPT_PLAN };

static const struct option long_options[] = {
    {"threads", required_argument, NULL, 't'},
    {"no-bind", no_argument, NULL, OPT_NO_BIND},
    {"smt", no_argument, NULL, OPT_SMT},
    {"engine", required_argument, NULL, 'e'},
    {"plan", required_argument, NULL, OPT_PLAN},
    {"json", no_argument, NULL, 'j'},
    {"unique", no_argument, NULL, 'u'},
    {"stats", no_argument, NULL, 's'},
    {"check", no_argument, NULL, 'c'},
    {"checkpoint", required_argument, NULL, OPT_CHECKPOINT},
    {"part", required_argument, NULL, OPT_PART},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    QC_MODE_LONG_OPTIONS
    {NULL, 0, NULL, 0},
};

int qca_parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || *s == '\0')
        return -1;
    long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        if (v > (hi - (*p - '0')) / 10)   /* would pass hi: stop before overflow */
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (v < lo)
        return -1;
    *out = v;
    return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* The long option whose getopt code is c, or NULL. */
static const struct option *long_option_of(int c)
{
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == c)
            return o;
    return NULL;
}

/* getopt_long's ':' (a value missing) or '?' (an option it refused) as one
 * line naming the option as the user wrote it.  GNU getopt_long always
 * steps past a long option's word; a short one is optopt itself. */
static int option_error(int c, char **argv, char *err, size_t errlen)
{
    const char *word = optind > 0 ? argv[optind - 1] : "";
    int is_long = word && strncmp(word, "--", 2) == 0 && word[2] != '\0';
    int name_len = is_long ? (int)strcspn(word, "=") : 0;
    const struct option *o = optopt ? long_option_of(optopt) : NULL;
    int short_ok = optopt > 0 && optopt < 256 && strchr("tejusqhV", optopt);
    if (c == ':') {
        if (is_long)
            FAIL("option '%.*s' needs an argument", name_len, word);
        FAIL("option '-%c' needs an argument", optopt);
    }
    /* a known option's code with '?': given a value it does not take */
    if (is_long && (short_ok || (o && optopt >= 256)) && word[name_len] == '=')
        FAIL("option '%.*s' takes no value", name_len, word);
    if (is_long) {
        int matches = 0;
        for (const struct option *p = long_options; p->name; p++)
            matches += strncmp(p->name, word + 2, (size_t)name_len - 2) == 0;
        if (matches > 1)
            FAIL("ambiguous option '%.*s' (see --help)", name_len, word);
        FAIL("unknown option '%.*s' (see --help)", name_len, word);
    }
    if (optopt == '-') {   /* '-u-8': a '-' inside a word of short options */
        const char *cluster = optind > 0 ? argv[optind - 1] : NULL;
        if (argv[optind] && argv[optind][0] == '-' && strchr(argv[optind] + 1, '-'))
            cluster = argv[optind];   /* the word is not finished: optind still on it */
        FAIL("unknown option '-' in '%s' (see --help)", cluster ? cluster : "-");
    }
    FAIL("unknown option '-%c' (see --help)", optopt);   /* escaped with the rest */
}

/* "K/M" into opts->part and opts->parts: 0, or -1. */
static int parse_part(const char *s, qca_options *opts)
{
    const char *slash = strchr(s, '/');
    char k[16];
    long part, parts;
    if (!slash || (size_t)(slash - s) >= sizeof k)
        return -1;
    memcpy(k, s, (size_t)(slash - s));
    k[slash - s] = '\0';
    if (qca_parse_int(k, 1, 1000000, &part) != 0
        || qca_parse_int(slash + 1, 1, 1000000, &parts) != 0 || part > parts)
        return -1;
    opts->part = (int)part;
    opts->parts = (int)parts;
    return 0;
}

/* The count's own options (and -h, -V).  Returns 0, 1 when the action is
 * settled (help, version), or -1 with a message. */
static int take_option(int c, char **argv, qca_options *opts, char *err, size_t errlen)
{
    long v;
    switch (c) {
    case 't':
        if (qca_parse_int(optarg, 1, QC_THREADS_MAX, &v) != 0)
            FAIL("invalid thread count '%s' (expected an integer from 1 to 4096)", optarg);
        opts->threads = (int)v;
        break;
    case OPT_NO_BIND:
        opts->bind &= ~QC_BIND_PIN;
        break;
    case OPT_SMT:
        opts->bind |= QC_BIND_SMT;
        break;
    case 'e':
        if (qc_engine_lookup(optarg, &opts->engine) != QC_OK)
            FAIL("unknown engine '%s' (see --help)", optarg);
        opts->engine_given = 1;
        break;
    case OPT_PLAN:
        if (qca_parse_int(optarg, QC_N_MIN, QC_N_MAX, &v) != 0)
            FAIL("invalid plan '%s' (expected a board size from %d to %d)", optarg, QC_N_MIN,
                 QC_N_MAX);
        opts->plan = (int)v;
        break;
    case 'j':
        opts->json = 1;
        break;
    case 'u':
        opts->unique = 1;
        break;
    case 's':
        opts->stats = 1;
        break;
    case 'c':
        opts->check = 1;
        break;
    case OPT_CHECKPOINT:
        if (*optarg == '\0')
            FAIL("empty checkpoint file name (--checkpoint needs a FILE)");
        opts->checkpoint = optarg;
        break;
    case OPT_PART:
        if (parse_part(optarg, opts) != 0)
            FAIL("invalid part '%s' (expected K/M, 1 <= K <= M <= 1000000)", optarg);
        break;
    case OPT_PROGRESS:   /* --progress and --quiet: the last one given wins */
        opts->progress = QC_PROGRESS_ALWAYS;
        break;
    case 'q':
        opts->progress = QC_PROGRESS_NEVER;
        break;
    case 'h':
        opts->action = QC_ACTION_HELP;
        return 1;
    case 'V':
        opts->action = QC_ACTION_VERSION;
        return 1;
    case QC_MODE_OPT_FIRST ... QC_MODE_OPT_END - 1:   /* mode_options.c */
        return qca_mode_option(c, optarg, &opts->mode, err, errlen);
    case ':':
    default:
        return option_error(c, argv, err, errlen);
    }
    return 0;
}

/* [OMP_NUM_THREADS] The thread count when --threads is not given: libgomp
 * reads the variable as it loads, before main, and prints its own warning
 * about a value it cannot take.  An executable's .preinit_array runs
 * earlier still, before any library's initialisers (glibc hands it the
 * environment), so a value qcount refuses is taken out of the environment
 * there, kept in omp_refused, and refused below with qcount's own line.
 * Where the hook does not run, the value is refused all the same.  The
 * same for the other OpenMP variables libgomp reads as it loads and warns
 * about: OMP_PROC_BIND, OMP_WAIT_POLICY (no effect on qcount's own
 * threads) and OMP_STACKSIZE (their stack size, spawn.c). */

/* s with spaces around it skipped: one of the words of list (a list of
 * them, comma-separated, when several), case-insensitively. */
static int omp_words(const char *s, const char *const *words, int several)
{
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        size_t k = 0;
        for (const char *const *w = words; *w && !k; w++)
            if (strncasecmp(s, *w, strlen(*w)) == 0)
                k = strlen(*w);
        if (!k)
            return 0;
        s += k;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            return 1;
        if (*s != ',' || !several)
            return 0;
        s++;
    }
}

static int omp_num_threads_ok(const char *v)
{
    long n;
    return qca_parse_int(v, 1, QC_THREADS_MAX, &n) == 0;
}

static int omp_proc_bind_ok(const char *v)
{
    static const char *const alone[] = {"true", "false", NULL};
    static const char *const places[] = {"primary", "master", "close", "spread", NULL};
    return omp_words(v, alone, 0) || omp_words(v, places, 1);
}

static int omp_wait_policy_ok(const char *v)
{
    static const char *const words[] = {"active", "passive", NULL};
    return omp_words(v, words, 0);
}

/* A size from 1 byte to 1 TiB: digits, then B, K, M or G (K when none). */
static int omp_stacksize_ok(const char *v)
{
    while (*v == ' ' || *v == '\t')
        v++;
    unsigned long long n = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9' && n < (1ULL << 41); p++)
        n = n * 10 + (unsigned long long)(*p - '0');
    if (p == v || n == 0 || (*p >= '0' && *p <= '9'))
        return 0;
    while (*p == ' ' || *p == '\t')
        p++;
    unsigned shift = 10;
    if (*p && strchr("bBkKmMgG", *p)) {
        shift = *p == 'b' || *p == 'B' ? 0 : *p == 'k' || *p == 'K' ? 10 : *p == 'm' || *p == 'M' ? 20 : 30;
        p++;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    return *p == '\0' && n <= (1ULL << 40) >> shift;
}

static const struct omp_variable {
    const char *name;
    int (*ok)(const char *value);
    const char *expected;
} omp_variables[] = {
    {"OMP_NUM_THREADS", omp_num_threads_ok, "an integer from 1 to 4096; --threads overrides it"},
    {"OMP_PROC_BIND", omp_proc_bind_ok, "true, false, or a list of primary, master, close, spread"},
    {"OMP_WAIT_POLICY", omp_wait_policy_ok, "active or passive"},
    {"OMP_STACKSIZE", omp_stacksize_ok, "a size with B, K, M or G, from 1 byte to 1 TiB"},
};
enum { OMP_VARIABLES = sizeof omp_variables / sizeof omp_variables[0] };
static const char *omp_refused[OMP_VARIABLES];   /* written before main, then only read */

#if defined(__ELF__) && defined(__GLIBC__)   /* glibc passes the environment */
static void omp_hide_refused(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    for (char **e = envp; e && *e;) {
        int hide = 0;
        for (int i = 0; i < OMP_VARIABLES && !hide; i++) {
            size_t len = strlen(omp_variables[i].name);
            if (strncmp(*e, omp_variables[i].name, len) != 0 || (*e)[len] != '=')
                continue;
            const char *value = *e + len + 1;
            if (!omp_variables[i].ok(value)) {   /* empty too: libgomp warns */
                omp_refused[i] = value;
                hide = 1;
            }
        }
        if (!hide) {
            e++;
            continue;
        }
        for (char **f = e; *f; f++)   /* unsetenv() by hand: libc may not be ready yet */
            f[0] = f[1];
    }
}

__attribute__((section(".preinit_array"), used))
static void (*const omp_hide_hook)(int, char **, char **) = omp_hide_refused;
#endif

/* The OpenMP variables, when counting: a value qcount cannot take is an
 * error (unset or empty is the default); OMP_NUM_THREADS into
 * opts->threads unless --threads was given. */
static int omp_variables_check(qca_options *opts, char *err, size_t errlen)
{
    for (int i = 0; i < OMP_VARIABLES; i++) {
        const char *value = omp_refused[i] ? omp_refused[i] : getenv(omp_variables[i].name);
        if (!value || *value == '\0' || omp_variables[i].ok(value))
            continue;
        if (i == 0 && opts->threads)
            continue;   /* --threads: OMP_NUM_THREADS is not used */
        FAIL("invalid %s '%s' (expected %s)", omp_variables[i].name, value, omp_variables[i].expected);
    }
    const char *threads = getenv("OMP_NUM_THREADS");
    long v;
    if (!opts->threads && threads && qca_parse_int(threads, 1, QC_THREADS_MAX, &v) == 0)
        opts->threads = (int)v;
    return 0;
}

/* The first option given that applies to counting alone, or NULL. */
static const char *count_only_option(const qca_options *opts)
{
    return opts->threads ? "--threads" : opts->json ? "--json"
           : !(opts->bind & QC_BIND_PIN) ? "--no-bind" : opts->bind & QC_BIND_SMT ? "--smt"
           : opts->engine_given ? "--engine" : opts->plan ? "--plan" : opts->check ? "--check"
           : opts->parts ? "--part"
           : opts->checkpoint ? "--checkpoint" : opts->stats ? "--stats"
           : opts->progress == QC_PROGRESS_ALWAYS ? "--progress" : NULL;
}

/* One board size, word[0..len): 0, or -1 with a message saying which way
 * it is wrong (not a number, or out of range). */
static int parse_board(const char *word, size_t len, int *n, char *err, size_t errlen)
{
    char buf[64];
    if (len >= sizeof buf)
        len = sizeof buf - 1;   /* too long for a board size anyway */
    memcpy(buf, word, len);
    buf[len] = '\0';
    long v;
    if (qca_parse_int(buf, QC_N_MIN, QC_N_MAX, &v) != 0) {
        const char *p = buf;
        while (*p >= '0' && *p <= '9')
            p++;
        if (*buf == '\0' || *p != '\0')
            FAIL("invalid board size '%s' (expected an integer from %d to %d)", word, QC_N_MIN, QC_N_MAX);
        FAIL("board size '%s' out of range (expected %d to %d)", word, QC_N_MIN, QC_N_MAX);
    }
    *n = (int)v;
    return 0;
}

/* The board size N, the one word left at argv[first]: N, or a range
 * FIRST-LAST of them when counting. */
static int parse_n(int argc, char **argv, int first, qca_options *opts, char *err, size_t errlen)
{
    if (first >= argc)
        FAIL("missing board size N (try 'qcount --help')");
    if (argc - first > 1) {   /* the first word that is not a board size is at fault */
        int n;
        if (parse_board(argv[first], strlen(argv[first]), &n, err, errlen) != 0)
            return -1;
        FAIL("unexpected argument '%s' (only one board size N)", argv[first + 1]);
    }
    const char *word = argv[first];
    const char *dash = strchr(word, '-');
    if (dash && dash != word && opts->action == QC_ACTION_COUNT) {
        if (parse_board(word, (size_t)(dash - word), &opts->n, err, errlen) != 0
            || parse_board(dash + 1, strlen(dash + 1), &opts->n_last, err, errlen) != 0)
            FAIL("invalid range '%s' (expected FIRST-LAST, each from %d to %d)", word, QC_N_MIN, QC_N_MAX);
        if (opts->n_last < opts->n)
            FAIL("invalid range '%s' (the first board size is larger than the last)", word);
        if (opts->checkpoint)
            FAIL("--checkpoint takes one board size N, not the range '%s'", word);
        if (opts->parts)
            FAIL("--part takes one board size N, not the range '%s'", word);
        opts->range = 1;
    } else {
        if (parse_board(word, strlen(word), &opts->n, err, errlen) != 0)
            return -1;
        opts->n_last = opts->n;
    }
    if (!opts->engine_given)
        opts->engine = opts->plan ? QC_ENGINE_JOIN : qc_engine_default(opts->n);
    if (opts->plan && opts->engine != QC_ENGINE_JOIN)
        FAIL("--plan takes the join engine's plans: not with --engine=%s",
             qc_engine_name(opts->engine));
    return 0;
}

static int parse_words(int argc, char **argv, qca_options *opts, char *err, size_t errlen)
{
    memset(opts, 0, sizeof *opts);
    opts->bind = QC_BIND_PIN;
    opts->engine = QC_ENGINE_JOIN;     /* replaced by N's default unless -e */
    opterr = 0;       /* our own one-line messages, not getopt's */
    optind = 0;       /* GNU: full re-initialisation, so we can parse twice */
    int c;
    while ((c = getopt_long(argc, argv, ":t:e:juscqhV", long_options, NULL)) != -1) {
        int rc = take_option(c, argv, opts, err, errlen);
        if (rc != 0)
            return rc > 0 ? 0 : -1;
    }
    int mode = qca_mode_finish(argc, argv, optind, opts->unique, count_only_option(opts),
                               &opts->mode, err, errlen);
    if (mode < 0)
        return -1;
    static const qca_action actions[] = {
        [QC_MODE_NONE] = QC_ACTION_COUNT, [QC_MODE_LIST] = QC_ACTION_LIST,
        [QC_MODE_SOLVE] = QC_ACTION_SOLVE, [QC_MODE_VERIFY] = QC_ACTION_VERIFY,
    };
    opts->action = actions[mode];
    if (opts->json && opts->mode.format == QC_FORMAT_BFILE)
        FAIL("--json and --format=bfile cannot be used together");
    if (mode == QC_MODE_SOLVE || mode == QC_MODE_VERIFY)   /* the words are taken */
        return 0;
    if (parse_n(argc, argv, optind, opts, err, errlen) != 0)
        return -1;
    if (opts->parts && opts->action == QC_ACTION_COUNT && !opts->checkpoint)
        FAIL("--part needs --checkpoint FILE: the part's ledger is what 'qcount merge' adds up");
    if (opts->parts && opts->check)
        FAIL("--check compares whole counts; check the total 'qcount merge' gives instead");
    if (opts->parts && (opts->unique || opts->mode.format == QC_FORMAT_BFILE))
        FAIL("--part counts a share of the solutions: %s needs the whole count",
             opts->unique ? "--unique" : "--format=bfile");
    return opts->action == QC_ACTION_COUNT ? omp_variables_check(opts, err, errlen) : 0;
}

int qca_options_parse(int argc, char **argv, qca_options *opts, char *err, size_t errlen)
{
    int rc = parse_words(argc, argv, opts, err, errlen);
    if (rc < 0)
        qca_quote_in_place(err, errlen);   /* messages quote the user's words */
    return rc;
}

int qca_options_summary(const qca_options *o, char *buf, size_t len)
{
    const qca_mode_options *m = &o->mode;
    size_t at = 0;
#define PUT(...) do { \
        int k_ = snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__); \
        at += k_ > 0 ? (size_t)k_ : 0; \
    } while (0)
    if (len)
        buf[0] = '\0';
    switch (o->action) {
    case QC_ACTION_HELP:
        PUT("--help");
        break;
    case QC_ACTION_VERSION:
        PUT("--version");
        break;
    case QC_ACTION_COUNT:
        PUT("--engine=%s", qc_engine_name(o->engine) ? qc_engine_name(o->engine) : "?");
        if (o->plan)
            PUT(" --plan=%d", o->plan);
        if (o->unique)
            PUT(" --unique");
        if (o->json)
            PUT(" --json");
        if (m->format == QC_FORMAT_BFILE)
            PUT(" --format=bfile");
        if (o->check)
            PUT(" --check");
        if (o->stats)
            PUT(" --stats");
        if (o->checkpoint)
            PUT(" --checkpoint=%s", o->checkpoint);
        if (o->range)
            PUT(" %d-%d", o->n, o->n_last);
        else
            PUT(" %d", o->n);
        break;
    case QC_ACTION_LIST:
        if (m->list)
            PUT("--list");
        if (m->svg_path)
            PUT("%s--svg=%s", m->list ? " " : "", m->svg_path);
        if (m->limit_given)
            PUT(" --limit=%llu", (unsigned long long)m->limit);
        if (m->format == QC_FORMAT_BOARD)
            PUT(" --format=board");
        if (m->unique)
            PUT(" --unique");
        PUT(" %d", o->n);
        break;
    case QC_ACTION_SOLVE:
        PUT("--solve%s", m->random ? " --random" : "");
        if (m->seed_given)
            PUT(" --seed=%llu", (unsigned long long)m->seed);
        PUT(" %zu", m->solve_n);
        break;
    case QC_ACTION_VERIFY:
        PUT("--verify");
        for (int i = 0; i < m->verify_argc; i++)
            PUT(" %s", m->verify_argv[i]);
        break;
    }
#undef PUT
    return at < len ? 0 : -1;
}
