//===- NVVMAlignGlobals.cpp - globals aligned for vectorized accesses -----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The NVPTX backend writes the PTX declaration of every global (`.shared
// .align 4 .b8 __wg_f_0[40]`) before it runs its load-store vectorizer,
// which then may raise the alignment of a global it defines and access it
// with 8- or 16-byte vector instructions (`st.shared.v4.b32`). The raised
// alignment never reaches the declaration, and the kernel fails at run time
// with a misaligned address. Declaring every global defined in a GPU module
// 16-byte aligned, the widest access the vectorizer forms, before
// translation keeps the two in agreement.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "CoroGPU/Target/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORONVVMALIGNGLOBALS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-nvvm-align-globals"

using namespace mlir;

namespace {

struct CoroNVVMAlignGlobalsPass
    : coro::impl::CoroNVVMAlignGlobalsBase<CoroNVVMAlignGlobalsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      // A declaration's alignment is its definer's.
      bool isDeclaration = global.getLinkage() == LLVM::Linkage::External &&
                           !global.getValue() &&
                           global.getInitializerRegion().empty();
      if (isDeclaration)
        continue;
      std::optional<uint64_t> alignment = global.getAlignment();
      if (alignment && *alignment >= kVectorAccessBytes)
        continue;
      LDBG() << "aligning @" << global.getSymName() << " to "
             << kVectorAccessBytes << " bytes (was "
             << (alignment ? *alignment : 0) << ")";
      global.setAlignment(kVectorAccessBytes);
      ++numGlobalsAligned;
    }
  }

  /// The widest access NVPTX's load-store vectorizer forms for the chips
  /// coro-to-ptx targets (sm_75 to sm_90): v4.b32, v2.b64. The schedulers'
  /// workgroup-memory budgets count the padding this alignment adds.
  static constexpr uint64_t kVectorAccessBytes = coro::kWorkgroupArrayAlignment;
};

} // namespace
