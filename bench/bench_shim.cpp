// bench_shim.cpp — Google Benchmark over the C API: one benchmark per
// (engine, N, threads), reporting placements per second.  The only C++ in
// qcount; it calls libqcount exactly as the CLI does.
#include <benchmark/benchmark.h>

#include <thread>

#include "qcount.h"
#include "textbook.h"

static void BM_count(benchmark::State &state)
{
    const auto engine = static_cast<qc_engine_id>(state.range(0));
    const int n = static_cast<int>(state.range(1));
    const int threads = static_cast<int>(state.range(2));
    qc_plan *plan = nullptr;
    if (qc_plan_create(&plan, n, engine) != QC_OK) {
        state.SkipWithError("plan not built");
        return;
    }
    qc_run_options opts{};   // hooks and stop flag off
    opts.threads = threads;
    opts.bind = 1;
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
    state.SetLabel(qc_engine_name(engine));
    qc_plan_free(plan);
}

// Arguments: engine, N, threads.  Threads go 1, 2, 4, ... up to the cores.
static void engine_args(benchmark::internal::Benchmark *b)
{
    const int cores = qc_topology_cores();
    for (int e = 0; e < QC_ENGINE_COUNT_; e++) {
        // the oracle engines are for cross-checks, minutes already at N=14
        const bool oracle = e == QC_ENGINE_DLX || e == QC_ENGINE_BRUTE;
        for (int n : {12, 14, 16, 17, 18, 19})
            for (int t = 1; t <= cores; t *= 2)
                if (n <= (oracle ? 12 : e == QC_ENGINE_JOIN ? 19 : 17))
                    b->Args({e, n, t});
    }
    b->ArgNames({"engine", "n", "threads"});
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

BENCHMARK(BM_count)->Apply(engine_args)->UseRealTime()->Unit(benchmark::kMillisecond);

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

BENCHMARK_MAIN();
