//===- DumpGraph.cpp - export transition graphs for people ----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads the coro.split ops and writes, per coroutine, a Graphviz file and a
// JSON file with the subroutines, the transitions, the frame fields and the
// code growth of the split.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORODUMPGRAPH
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-dump-graph"

using namespace mlir;
using namespace mlir::coro;

/// Ops nested in `function`, the function itself excluded.
static int64_t countNestedOps(Operation *function) {
  int64_t count = 0;
  function->walk([&](Operation *) { ++count; });
  return count - 1;
}

namespace {

/// What the files say about one split coroutine.
struct GraphSummary {
  std::string coroutine;
  int64_t originalOps = 0;
  struct Node {
    int32_t token;
    std::string name, symbol;
    int64_t ops;
  };
  SmallVector<Node> nodes;
  SmallVector<std::pair<int32_t, int32_t>> transitions;
  SmallVector<std::string> fields;
  int64_t frameBytes = 0;
  /// What coro-split counted (the op's `statistics`), by name.
  SmallVector<std::pair<std::string, int64_t>> splitStatistics;

  int64_t getSubroutineOps() const {
    int64_t total = 0;
    for (const Node &node : nodes)
      total += node.ops;
    return total;
  }
};

} // namespace

static GraphSummary summarize(SplitOp split, FuncOp coroutine,
                              SymbolTable &symbols) {
  GraphSummary summary;
  summary.coroutine = split.getCoroutine().str();
  summary.originalOps = countNestedOps(coroutine);
  for (auto [token, symbol, name] :
       llvm::enumerate(split.getSubroutines(), split.getNames())) {
    StringRef symbolName = cast<FlatSymbolRefAttr>(symbol).getValue();
    Operation *subroutine = symbols.lookup(symbolName);
    summary.nodes.push_back({static_cast<int32_t>(token),
                             cast<StringAttr>(name).str(), symbolName.str(),
                             subroutine ? countNestedOps(subroutine) : 0});
  }
  for (Attribute edge : split.getTransitions()) {
    ArrayRef<int32_t> pair = cast<DenseI32ArrayAttr>(edge).asArrayRef();
    summary.transitions.emplace_back(pair[0], pair[1]);
  }
  for (FrameFieldAttr field : split.getFrameFields()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << field.getName().getValue() << " : " << field.getType();
    summary.fields.push_back(text);
  }
  summary.frameBytes = split.getFrameWords() * 4;
  if (DictionaryAttr statistics = split.getStatisticsAttr())
    for (NamedAttribute entry : statistics)
      if (auto count = dyn_cast<IntegerAttr>(entry.getValue()))
        summary.splitStatistics.emplace_back(entry.getName().str(),
                                             count.getInt());
  return summary;
}

static void writeDot(const GraphSummary &summary, llvm::raw_ostream &os) {
  os << "digraph \"" << summary.coroutine << "\" {\n";
  os << "  label=\"@" << summary.coroutine << ": " << summary.originalOps
     << " ops -> " << summary.getSubroutineOps() << " ops in "
     << summary.nodes.size() << " subroutines, " << summary.fields.size()
     << " frame fields in " << summary.frameBytes << " bytes";
  for (const auto &[name, count] : summary.splitStatistics)
    os << ", " << name << " " << count;
  os << "\";\n";
  os << "  node [shape=box];\n";
  for (const GraphSummary::Node &node : summary.nodes)
    os << "  t" << node.token << " [label=\"" << node.name << "\\ntoken "
       << node.token << ", " << node.ops << " ops\"];\n";
  os << "  returned [shape=doublecircle];\n";
  for (auto [from, to] : summary.transitions) {
    os << "  t" << from << " -> ";
    if (to == kTerminatedToken)
      os << "returned";
    else
      os << "t" << to;
    os << ";\n";
  }
  os << "}\n";
}

static llvm::json::Value toJson(const GraphSummary &summary) {
  llvm::json::Array nodes;
  for (const GraphSummary::Node &node : summary.nodes)
    nodes.push_back(llvm::json::Object{{"token", node.token},
                                       {"name", node.name},
                                       {"symbol", node.symbol},
                                       {"ops", node.ops}});
  llvm::json::Array transitions;
  for (auto [from, to] : summary.transitions)
    transitions.push_back(llvm::json::Array{from, to});
  llvm::json::Array fields;
  for (const std::string &field : summary.fields)
    fields.push_back(field);
  int64_t subroutineOps = summary.getSubroutineOps();
  double growth = summary.originalOps
                      ? static_cast<double>(subroutineOps) / summary.originalOps
                      : 0.0;
  // Two decimals are plenty for people, and print the same everywhere.
  std::string growthText = llvm::formatv("{0:F2}", growth).str();
  llvm::json::Object splitStatistics;
  for (const auto &[name, count] : summary.splitStatistics)
    splitStatistics[name] = count;
  return llvm::json::Object{{"coroutine", summary.coroutine},
                            {"original_ops", summary.originalOps},
                            {"subroutine_ops", subroutineOps},
                            {"growth", growthText},
                            {"frame_fields", std::move(fields)},
                            {"frame_bytes", summary.frameBytes},
                            {"split_statistics", std::move(splitStatistics)},
                            {"subroutines", std::move(nodes)},
                            {"transitions", std::move(transitions)}};
}

/// Writes `text` to `path`, reporting failures on `op`.
static LogicalResult writeFile(Operation *op, StringRef path,
                               function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return op->emitError("coro-dump-graph: cannot write ")
           << path << ": " << error.message();
  write(os);
  return success();
}

namespace {

struct CoroDumpGraphPass : coro::impl::CoroDumpGraphBase<CoroDumpGraphPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(prepareOutputDirectory(module, "coro-dump-graph", outputDir)))
      return signalPassFailure();
    if (failed(checkSplitRan(module, getArgument())))
      return signalPassFailure();
    SymbolTable symbols(module);
    for (SplitOp split : module.getOps<SplitOp>()) {
      auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
      if (!coroutine)
        continue; // Already lowered by a scheduler: nothing to compare.
      GraphSummary summary = summarize(split, coroutine, symbols);
      SmallString<128> base(outputDir);
      llvm::sys::path::append(base, summary.coroutine);
      if (failed(writeFile(
              split, (base + ".dot").str(),
              [&](llvm::raw_ostream &os) { writeDot(summary, os); })) ||
          failed(writeFile(
              split, (base + ".json").str(), [&](llvm::raw_ostream &os) {
                os << llvm::formatv("{0:2}", toJson(summary)) << "\n";
              })))
        return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
