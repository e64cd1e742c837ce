// The generators of property_gen.hpp, from RapidCheck's own (gen::build,
// gen::container, gen::weightedOneOf, ...): their shrinking is RapidCheck's.
#include "property_gen.hpp"

#include <algorithm>
#include <tuple>

namespace flushcheck {

namespace {

/// An integer in [MIN, MAX), uniform whatever the size (RapidCheck's
/// inRange scales the range by the size, which here sets only a workload's
/// length), shrinking towards MIN.
template <typename T>
rc::Gen<T> uniform(T min, T max) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}

/// One of V, shrinking towards its first (RapidCheck's elementOf does not shrink).
template <typename T>
rc::Gen<T> pick(std::vector<T> v) {
  const std::size_t n = v.size();  // before v moves into the lambda
  return rc::gen::map(uniform<std::size_t>(0, n),
                      [v = std::move(v)](std::size_t i) { return v[i]; });
}

/// A record's size: mostly small, one time in seven at a buffer's edge
/// (512, 1024, stdio's 4096 and 8192, PIPE_BUF's 4096, a pipe's 65536),
/// one byte either side. Shrinks towards small, then towards 0.
rc::Gen<long> gen_bytes() {
  std::vector<long> edges;
  for (long edge : {512L, 1024L, 4096L, 8192L, 65536L})
    for (long d : {-1L, 0L, 1L}) edges.push_back(edge + d);
  return rc::gen::map(
      rc::gen::tuple(uniform(0, 7), uniform(0L, 121L), uniform<std::size_t>(0, edges.size())),
      [edges](const std::tuple<int, long, std::size_t>& t) {
        return std::get<0>(t) < 6 ? std::get<1>(t) : edges[std::get<2>(t)];
      });
}

rc::Gen<int> gen_level(const property_spec& spec) {
  std::vector<int> levels;
  for (const auto& l : spec.levels)
    levels.push_back(
        static_cast<int>(std::find(workload_levels().begin(), workload_levels().end(), l) -
                         workload_levels().begin()));
  std::sort(levels.begin(), levels.end());  // shrinks towards the lowest
  return pick(levels);
}

/// Where a cut or fault comes: mostly early (the first writes), sometimes later.
rc::Gen<long> gen_at() {
  return rc::gen::weightedOneOf<long>({{3, uniform(0L, 4L)}, {1, uniform(0L, 40L)}});
}

/// One thread three times in four, else 2 to spec.threads; shrinks towards one.
rc::Gen<int> gen_threads(const property_spec& spec) {
  if (spec.threads < 2) return rc::gen::just(0);
  return rc::gen::map(
      rc::gen::tuple(uniform(0, 4), uniform(2, spec.threads + 1)),
      [](const std::tuple<int, int>& t) { return std::get<0>(t) < 3 ? 0 : std::get<1>(t); });
}

std::vector<property_end> ends_of(const property_spec& spec) {
  std::vector<property_end> ends;
  for (const auto& [end, p] : spec.promises) ends.push_back(end);  // return first
  return ends;
}

}  // namespace

rc::Gen<workload_op> gen_workload_op(const property_spec& spec) {
  using kind = workload_op::kind;
  auto log = rc::gen::build<workload_op>(rc::gen::set(&workload_op::level, gen_level(spec)),
                                         rc::gen::set(&workload_op::bytes, gen_bytes()));
  auto flush = rc::gen::just(workload_op{kind::flush, 0, 0, 0});
  auto sleep = rc::gen::map(pick(std::vector<int>{1, 5, 20}), [](int ms) {
    return workload_op{kind::sleep, 0, 0, ms};
  });
  return rc::gen::weightedOneOf<workload_op>({{12, log}, {1, flush}, {1, sleep}});
}

rc::Gen<workload_case> gen_workload_case(const property_spec& spec,
                                         std::optional<property_end> end) {
  return rc::gen::build<workload_case>(
      rc::gen::set(&workload_case::ops,
                   rc::gen::container<std::vector<workload_op>>(gen_workload_op(spec))),
      rc::gen::set(&workload_case::end, end ? rc::gen::just(*end) : pick(ends_of(spec))),
      rc::gen::set(&workload_case::sink, pick(spec.sinks)),
      rc::gen::set(&workload_case::threads, gen_threads(spec)),
      rc::gen::set(&workload_case::threads_at, uniform<std::size_t>(0, 40)),
      rc::gen::set(&workload_case::cut, pick(spec.cuts)),
      rc::gen::set(&workload_case::fault, pick(spec.faults)),
      rc::gen::set(&workload_case::at, gen_at()),
      rc::gen::set(&workload_case::marker_at, uniform<std::size_t>(0, 81)));
}

}  // namespace flushcheck
