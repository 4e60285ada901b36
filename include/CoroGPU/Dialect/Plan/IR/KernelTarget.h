//===- KernelTarget.h - kernel targets in IR and options --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the compiler side needs to use the runtime's KernelTarget
// (corogpu/runtime/KernelTarget.h) as an attribute parameter (plans of host
// programs), a pass or command-line option (`target=sm_90`) and in
// diagnostics: printing, hashing and an option parser, all with the one
// spelling KernelTarget::parse takes.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_PLAN_IR_KERNELTARGET_H
#define COROGPU_DIALECT_PLAN_IR_KERNELTARGET_H

#include "corogpu/runtime/KernelTarget.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace corogpu::runtime {
/// Writes the target's spelling (KernelTarget::str): diagnostics, pass
/// options and plans print it this way.
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const KernelTarget &target) {
  return os << target.str();
}

inline llvm::hash_code hash_value(const KernelTarget &target) {
  return llvm::hash_combine(target.getKind(), target.getChip());
}
} // namespace corogpu::runtime

/// KernelTarget as a command-line and pass option (`target=spirv`,
/// `target=sm_90`): a name that is neither is the option's error.
template <>
class llvm::cl::parser<corogpu::runtime::KernelTarget>
    : public llvm::cl::basic_parser<corogpu::runtime::KernelTarget> {
public:
  explicit parser(llvm::cl::Option &option) : basic_parser(option) {}

  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             corogpu::runtime::KernelTarget &value) {
    if (std::optional<corogpu::runtime::KernelTarget> target =
            corogpu::runtime::KernelTarget::parse(arg)) {
      value = *target;
      return false;
    }
    return option.error("'" + arg +
                        "' is not a kernel target: spirv (Vulkan) or an "
                        "NVIDIA chip (sm_90, PTX for CUDA)");
  }
  llvm::StringRef getValueName() const override { return "target"; }
  // --print-options: the value as parse takes it.
  void printOptionDiff(const llvm::cl::Option &option,
                       const corogpu::runtime::KernelTarget &value,
                       const OptVal &, size_t globalWidth) const {
    printOptionName(option, globalWidth);
    llvm::outs() << "= " << value.str() << "\n";
  }
};

#endif // COROGPU_DIALECT_PLAN_IR_KERNELTARGET_H
