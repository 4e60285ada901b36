//===- FrameReport.cpp - frame sizes and layouts for people ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Prints, per split coroutine, how big its frame was before and after each
// reduction step, and where each field lives and who loads and stores it.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameLayout.h"
#include "CoroGPU/Analysis/FrameLiveness.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROFRAMEREPORT
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-frame-report"

using namespace mlir;
using namespace mlir::coro;

namespace {

/// The report for one coroutine.
struct FrameSummary {
  std::string coroutine;
  SmallVector<std::pair<std::string, int64_t>> stages;
  int64_t finalBytes = 0;
  /// No layout of these fields can be smaller: the promises, and the bits
  /// of the fields live when some subroutine starts, packed.
  int64_t lowerBoundBytes = 0;
  struct Field {
    /// `location`: where an unnamed value comes from (file:line:col).
    std::string name, type, location;
    int64_t word, bit, bits;
    bool promise, special;
    SmallVector<std::string> loadedIn, storedOn;
  };
  SmallVector<Field> fields;
};

} // namespace

/// Stages in the order they run; only those recorded are printed.
static constexpr llvm::StringLiteral kStages[] = {
    "naive", "split", "field_liveness", "slot_sharing", "bit_packing"};

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static FrameSummary summarize(SplitOp split,
                              ArrayRef<func::FuncOp> subroutines) {
  FrameSummary summary;
  summary.coroutine = split.getCoroutine().str();
  if (DictionaryAttr sizes = split.getFrameBytesAttr())
    for (StringRef stage : kStages)
      if (auto bytes = sizes.getAs<IntegerAttr>(stage))
        summary.stages.emplace_back(stage.str(), bytes.getInt());
  SmallVector<FrameFieldAttr> fields = split.getFrameFields();
  summary.finalBytes = getFrameBytes(fields);

  FrameLiveness liveness(split, subroutines);
  auto tokenName = [&](int32_t token) {
    return token == kTerminatedToken
               ? std::string("returned")
               : cast<StringAttr>(split.getNames()[token]).str();
  };

  int64_t promiseWords = 0, widest = 0;
  for (FrameFieldAttr field : fields)
    if (field.getPromise())
      promiseWords += field.getNumWords();
  for (int32_t token = 0, e = subroutines.size(); token < e; ++token) {
    int64_t bits = 0;
    for (unsigned index : liveness.getLiveIn(token).set_bits())
      if (!fields[index].getPromise())
        bits += fields[index].getStorageBits();
    widest = std::max(widest, bits);
  }
  summary.lowerBoundBytes =
      (kFirstFieldWord + promiseWords + (widest + 31) / 32) * 4;

  Type i32 = IntegerType::get(split.getContext(), 32);
  summary.fields.push_back({kTargetTokenField.str(),
                            printType(i32),
                            {},
                            kTargetTokenWord,
                            0,
                            32,
                            false,
                            true,
                            {},
                            {}});
  summary.fields.push_back({kCoroIdField.str(),
                            printType(i32),
                            {},
                            kCoroIdWord,
                            0,
                            32,
                            false,
                            true,
                            {},
                            {}});
  for (auto [index, field] : llvm::enumerate(fields)) {
    FrameSummary::Field entry{field.getName().str(),
                              printType(field.getType()),
                              field.getLocation()
                                  ? formatSourceLocation(field.getLocation())
                                  : std::string(),
                              field.getWord(),
                              field.getBit(),
                              field.getStorageBits(),
                              field.getPromise(),
                              false,
                              {},
                              {}};
    for (int32_t token = 0, e = subroutines.size(); token < e; ++token) {
      if (liveness.getLoadOnResume(token).test(index))
        entry.loadedIn.push_back(tokenName(token));
      for (int32_t successor : liveness.getSuccessors(token))
        if (liveness.getWritten(token, successor).test(index))
          entry.storedOn.push_back(tokenName(token) + "->" +
                                   tokenName(successor));
    }
    summary.fields.push_back(std::move(entry));
  }
  // Rows in the frame's word order (fields that share a word, live at
  // different points, keep the order of their fields).
  llvm::stable_sort(summary.fields, [](const FrameSummary::Field &a,
                                       const FrameSummary::Field &b) {
    return std::tie(a.word, a.bit) < std::tie(b.word, b.bit);
  });
  return summary;
}

static void writeText(const FrameSummary &summary, llvm::raw_ostream &os) {
  os << "@" << summary.coroutine << ": frame of " << summary.finalBytes
     << " bytes\n";
  for (const auto &[stage, bytes] : summary.stages)
    os << llvm::formatv("  {0,-16}{1,6} bytes\n", stage, bytes);
  os << llvm::formatv("  {0,-16}{1,6} bytes\n", "final", summary.finalBytes);
  os << llvm::formatv("  {0,-16}{1,6} bytes (what is live when a subroutine "
                      "starts, packed)\n",
                      "lower bound", summary.lowerBoundBytes);
  os << llvm::formatv("  {0,-6}{1,-5}{2,-7}{3,-6}{4,-8}{5}\n", "word", "bit",
                      "offset", "bits", "type", "field");
  for (const FrameSummary::Field &field : summary.fields) {
    os << llvm::formatv("  {0,-6}{1,-5}{2,-7}{3,-6}{4,-8}{5}", field.word,
                        field.bit, field.word * 4 + field.bit / 8, field.bits,
                        field.type, field.name);
    if (field.special)
      os << " (special)";
    if (field.promise)
      os << " (promise)";
    if (!field.location.empty())
      os << " (" << field.location << ")";
    if (!field.loadedIn.empty())
      os << "  load: " << llvm::join(field.loadedIn, ", ");
    if (!field.storedOn.empty())
      os << "  store: " << llvm::join(field.storedOn, ", ");
    os << "\n";
  }
}

static llvm::json::Value toJson(const FrameSummary &summary) {
  llvm::json::Array stages;
  for (const auto &[stage, bytes] : summary.stages)
    stages.push_back(llvm::json::Object{{"stage", stage}, {"bytes", bytes}});
  stages.push_back(
      llvm::json::Object{{"stage", "final"}, {"bytes", summary.finalBytes}});
  llvm::json::Array fields;
  for (const FrameSummary::Field &field : summary.fields) {
    std::string kind = field.special   ? "special"
                       : field.promise ? "promise"
                                       : "state";
    llvm::json::Object entry{{"name", field.name},
                             {"type", field.type},
                             {"kind", kind},
                             {"word", field.word},
                             {"bit", field.bit},
                             {"offset_bytes", field.word * 4 + field.bit / 8},
                             {"bits", field.bits},
                             {"loaded_in", llvm::json::Array(field.loadedIn)},
                             {"stored_on", llvm::json::Array(field.storedOn)}};
    if (!field.location.empty())
      entry["location"] = field.location;
    fields.push_back(std::move(entry));
  }
  return llvm::json::Object{{"coroutine", summary.coroutine},
                            {"frame_bytes", summary.finalBytes},
                            {"lower_bound_bytes", summary.lowerBoundBytes},
                            {"stages", std::move(stages)},
                            {"fields", std::move(fields)}};
}

namespace {

struct CoroFrameReportPass
    : coro::impl::CoroFrameReportBase<CoroFrameReportPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      module.emitError("coro-frame-report: ") << error;
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    if (failed(checkSplitRan(module, getArgument())))
      return signalPassFailure();
    llvm::json::Array reports;
    for (SplitOp split : module.getOps<SplitOp>()) {
      FailureOr<SmallVector<func::FuncOp>> subroutines =
          split.lookupSubroutines(symbols);
      if (failed(subroutines))
        return signalPassFailure();
      FrameSummary summary = summarize(split, *subroutines);
      if (format == FrameReportFormat::JSON)
        reports.push_back(toJson(summary));
      else
        writeText(summary, file->os());
    }
    if (format == FrameReportFormat::JSON)
      file->os() << llvm::formatv("{0:2}",
                                  llvm::json::Value(std::move(reports)))
                 << "\n";
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace
