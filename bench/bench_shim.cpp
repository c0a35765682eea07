/* SPDX-License-Identifier: MIT */
// bench_shim.cpp — Google Benchmark over the C API: one benchmark per
// (engine, N, threads), reporting wall and process CPU time and placements
// per second.  The only C++ in qcount; it calls libqcount exactly as the
// CLI does.  QCOUNT_BENCH_THREADS picks the thread counts (see below).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "qcount.h"
#include "textbook.h"

static void BM_count(benchmark::State &state, qc_engine_id engine, int n, int threads)
{
    qc_plan *plan = nullptr;
    if (qc_plan_create(&plan, n, engine) != QC_OK) {
        state.SkipWithError("plan not built");
        return;
    }
    qc_run_options opts{};   // hooks and stop flag off
    opts.size = sizeof opts;
    opts.threads = threads;
    opts.bind = QC_BIND_PIN;
    qc_result r{};
    double placements = 0;
    for (auto _ : state) {
        if (qc_run(plan, &opts, &r) != QC_OK) {   // e.g. a unit out of memory
            state.SkipWithError("count failed");
            break;
        }
        placements += static_cast<double>(r.placements);
        benchmark::DoNotOptimize(r.total);
    }
    state.counters["placements/s"] = benchmark::Counter(placements, benchmark::Counter::kIsRate);
    state.counters["total"] = static_cast<double>(r.total);
    state.counters["threads"] = threads;
    state.counters["n"] = n;
    state.SetLabel(qc_engine_name(engine));
    qc_plan_free(plan);
}

// The thread counts to time: QCOUNT_BENCH_THREADS as a list of numbers
// and ranges ("1,2,4", "1-16", "1-4,8,16"), by default every count from 1
// to the cores this process may use.  A malformed list is an error.
static std::vector<int> thread_counts()
{
    std::vector<int> out;
    const char *spec = std::getenv("QCOUNT_BENCH_THREADS");
    if (!spec || !*spec) {
        for (int t = 1; t <= qc_topology_cores(); t++)
            out.push_back(t);
        return out;
    }
    const char *p = spec;
    while (*p) {
        char *end;
        long lo = std::strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 1 || lo > 4096)
            break;
        p = end;
        if (*p == '-') {
            hi = std::strtol(p + 1, &end, 10);
            if (end == p + 1 || hi < lo || hi > 4096)
                break;
            p = end;
        }
        for (long t = lo; t <= hi; t++)
            out.push_back(static_cast<int>(t));
        if (*p == ',')
            p++;
        else if (*p)
            break;
    }
    if (*p || out.empty()) {
        std::fprintf(stderr, "qcount_bench: QCOUNT_BENCH_THREADS='%s' is not a list like 1,2,4 or 1-16\n", spec);
        std::exit(2);
    }
    return out;
}

// One benchmark per (engine, N, threads), named count/ENGINE/n:N/threads:T,
// timed by the wall clock with the whole process's CPU time beside it.
static void register_counts()
{
    const std::vector<int> threads = thread_counts();
    for (int e = 0; qc_engine_name(static_cast<qc_engine_id>(e)); e++) {
        // the oracle engines are for cross-checks, minutes already at N=14
        const bool oracle = e == QC_ENGINE_DLX || e == QC_ENGINE_BRUTE;
        const char *name = qc_engine_name(static_cast<qc_engine_id>(e));
        for (int n : {12, 14, 16, 17, 18, 19}) {
            if (n > (oracle ? 12 : e == QC_ENGINE_JOIN ? 19 : 17))
                continue;
            for (int t : threads) {
                std::string id = std::string("count/") + name + "/n:" + std::to_string(n)
                               + "/threads:" + std::to_string(t);
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
    double placements = 0;
    uint64_t total = 0;
    for (auto _ : state) {
        uint64_t placed = 0;
        total = textbook_count(n, &placed);
        placements += static_cast<double>(placed);
        benchmark::DoNotOptimize(total);
    }
    state.counters["placements/s"] = benchmark::Counter(placements, benchmark::Counter::kIsRate);
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
    uint64_t placements = 0;
    double total_placements = 0;
    for (auto _ : state) {
        placements = 0;
        qc_symmetric_counts(n, &r90, &r180, &placements);
        total_placements += static_cast<double>(placements);
        benchmark::DoNotOptimize(r180);
    }
    state.counters["placements/s"] = benchmark::Counter(total_placements, benchmark::Counter::kIsRate);
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
