#pragma once
// Google Benchmark's console reporter that also keeps each benchmark's
// items per second, so a bench's main can print ratios measured side by
// side in the one run (property_bench, property_gate_bench).
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace flushcheck {

class rate_reporter : public benchmark::ConsoleReporter {
 public:
  /// "runner/sink:0" (the name before "/min_time") -> items per second.
  std::map<std::string, double> rate;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      auto it = r.counters.find("items_per_second");
      if (it == r.counters.end()) continue;
      std::string name = r.benchmark_name();  // "runner/sink:0/min_time:1.000/real_time"
      name = name.substr(0, name.find("/min_time"));
      rate[name] = it->second;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace flushcheck
