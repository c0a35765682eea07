/* SPDX-License-Identifier: MIT */
// bench_shim.cpp — Google Benchmark over the C API: one benchmark per
// (engine, N, workers), each iteration what `qcount N` does (the plan
// built, its units counted over the workers, the plan freed), reporting
// wall and process CPU time and the engine's steps per second (qc_tally).  The only
// C++ in qcount; it calls libqcount exactly as the CLI does.
// QCOUNT_BENCH_N and QCOUNT_BENCH_THREADS pick the boards and the worker
// counts (see below).
//
// Names: BM_count/ENGINE/N/workers:T.  T is qc_run's thread count, not
// Google Benchmark's own ->Threads() (the "threads" key of every JSON
// record, always 1 here: one benchmark thread calls qc_run), hence its
// own name.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "qcount.h"
#include "textbook.h"


static void BM_count(benchmark::State &state, qc_engine_id engine, int n, int workers)
{
    qc_run_options opts{};   // hooks and stop flag off
    opts.size = sizeof opts;
    opts.threads = workers;
    opts.bind = QC_BIND_PIN;
    qc_result r{};
    double steps = 0;
    for (auto _ : state) {
        // a plan per iteration, as every run of the program builds one: a
        // plan counted again would reuse what its first count cached
        qc_plan *plan = nullptr;
        int rc = qc_plan_create(&plan, n, engine);
        if (rc == QC_OK)
            rc = qc_run(plan, &opts, &r);
        qc_plan_free(plan);
        if (rc != QC_OK) {   // e.g. a unit out of memory
            state.SkipWithError(qc_strerror(rc));
            break;
        }
        steps += static_cast<double>(r.steps);
        benchmark::DoNotOptimize(r.total);
    }
    state.counters["steps/s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
    state.counters["total"] = static_cast<double>(r.total);
    state.counters["n"] = n;
    state.counters["workers"] = r.threads;   // as granted
    state.SetLabel(qc_engine_name(engine));
}

// A list of numbers and ranges from the environment variable `var`
// ("1,2,4", "1-16", "12-16,18"), each within [lo, hi], or `fallback` when
// it is unset or empty.  A malformed list is an error (exit 2).
static std::vector<int> env_list(const char *var, int lo_bound, int hi_bound, std::vector<int> fallback)
{
    const char *spec = std::getenv(var);
    if (!spec || !*spec)
        return fallback;
    std::vector<int> out;
    const char *p = spec;
    while (*p) {
        char *end;
        long lo = std::strtol(p, &end, 10), hi = lo;
        if (end == p || lo < lo_bound)
            break;
        p = end;
        if (*p == '-') {
            hi = std::strtol(p + 1, &end, 10);
            if (end == p + 1 || hi < lo)
                break;
            p = end;
        }
        if (hi > hi_bound)
            break;
        for (long v = lo; v <= hi; v++)
            out.push_back(static_cast<int>(v));
        if (*p == ',')
            p++;
        else if (*p)
            break;
    }
    if (*p || out.empty()) {
        std::fprintf(stderr, "qcount_bench: %s='%s' is not a list like 1,2,4 or %d-%d\n", var, spec,
                     lo_bound, hi_bound);
        std::exit(2);
    }
    return out;
}

// One benchmark per (engine, N, workers): N from QCOUNT_BENCH_N (default
// 12,14,16), workers from QCOUNT_BENCH_THREADS (default every count from 1
// to the cores this process may use).  The oracle engines, for
// cross-checks and minutes long already at N=14, only to N=12.
static void register_counts()
{
    std::vector<int> cores;
    for (int t = 1; t <= qc_topology_cores(); t++)
        cores.push_back(t);
    const std::vector<int> workers = env_list("QCOUNT_BENCH_THREADS", 1, 4096, cores);
    const std::vector<int> boards = env_list("QCOUNT_BENCH_N", QC_N_MIN, QC_N_MAX, {12, 14, 16});
    for (int e = 0; qc_engine_name(static_cast<qc_engine_id>(e)); e++) {
        const bool oracle = e == QC_ENGINE_DLX || e == QC_ENGINE_BRUTE;
        const char *name = qc_engine_name(static_cast<qc_engine_id>(e));
        for (int n : boards) {
            if (oracle && n > 12)
                continue;
            for (int t : workers) {
                std::string id = std::string("BM_count/") + name + "/" + std::to_string(n)
                               + "/workers:" + std::to_string(t);
                benchmark::RegisterBenchmark(id.c_str(), BM_count, static_cast<qc_engine_id>(e), n, t)
                    ->UseRealTime()
                    ->MeasureProcessCPUTime()
                    ->Unit(benchmark::kMillisecond);
            }
        }
    }
}

// The yardstick: a plain textbook halving counter, one thread (bench/textbook.c).
static void BM_textbook(benchmark::State &state)
{
    const int n = static_cast<int>(state.range(0));
    double steps = 0;
    uint64_t total = 0;
    for (auto _ : state) {
        uint64_t placed = 0;
        total = qcb_textbook_count(n, &placed);
        steps += static_cast<double>(placed);
        benchmark::DoNotOptimize(total);
    }
    state.counters["steps/s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
    state.counters["total"] = static_cast<double>(total);
    state.SetLabel("textbook");
}
BENCHMARK(BM_textbook)->ArgName("n")->Arg(12)->Arg(14)->Arg(16)->Arg(17)->UseRealTime()->Unit(benchmark::kMillisecond);


// The searches behind --unique (solutions fixed by a quarter / half turn):
// one thread, to set against BM_count's time for the same N.
static void BM_symmetric(benchmark::State &state)
{
    const int n = static_cast<int>(state.range(0));
    qc_u128 r90 = 0, r180 = 0;
    uint64_t steps = 0;
    double total_steps = 0;
    for (auto _ : state) {
        steps = 0;
        qc_symmetric_counts(n, &r90, &r180, &steps);
        total_steps += static_cast<double>(steps);
        benchmark::DoNotOptimize(r180);
    }
    state.counters["steps/s"] = benchmark::Counter(total_steps, benchmark::Counter::kIsRate);
    state.counters["r90"] = static_cast<double>(r90);
    state.counters["r180"] = static_cast<double>(r180);
}
BENCHMARK(BM_symmetric)->ArgName("n")->DenseRange(16, 20, 2)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    register_counts();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
