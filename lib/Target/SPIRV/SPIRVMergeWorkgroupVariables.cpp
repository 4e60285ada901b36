//===- SPIRVMergeWorkgroupVariables.cpp - one arena for all kernels -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVMERGEWORKGROUPVARIABLES
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-merge-workgroup-variables"

using namespace mlir;

namespace {

struct CoroSPIRVMergeWorkgroupVariablesPass
    : coro::impl::CoroSPIRVMergeWorkgroupVariablesBase<
          CoroSPIRVMergeWorkgroupVariablesPass> {
  using Base::Base;

  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    // The functions that take the address of each Workgroup variable.
    llvm::MapVector<StringRef, SmallVector<spirv::AddressOfOp>> uses;
    llvm::StringMap<spirv::GlobalVariableOp> variables;
    for (auto variable : module.getOps<spirv::GlobalVariableOp>()) {
      auto pointer = cast<spirv::PointerType>(variable.getType());
      if (pointer.getStorageClass() == spirv::StorageClass::Workgroup) {
        variables[variable.getSymName()] = variable;
        uses[variable.getSymName()];
      }
    }
    llvm::StringSet<> entryPoints;
    for (auto entryPoint : module.getOps<spirv::EntryPointOp>())
      entryPoints.insert(entryPoint.getFn());
    module.walk([&](spirv::AddressOfOp address) {
      auto it = uses.find(address.getVariable());
      if (it != uses.end())
        it->second.push_back(address);
    });

    // The n-th variable of a type an entry point uses becomes the n-th of
    // that type: kernels never run in the same workgroup at once. Variables
    // used by several functions, or by a function that is not an entry
    // point (a kernel that has its own might call it), keep their own.
    DenseMap<std::pair<Operation *, Type>, unsigned> usedOfType;
    DenseMap<std::pair<Type, unsigned>, spirv::GlobalVariableOp> merged;
    for (auto &[name, addresses] : uses) {
      if (addresses.empty())
        continue;
      auto function = addresses.front()->getParentOfType<spirv::FuncOp>();
      if (!function || !entryPoints.contains(function.getSymName()) ||
          llvm::any_of(addresses, [&](spirv::AddressOfOp a) {
            return a->getParentOfType<spirv::FuncOp>() != function;
          }))
        continue;
      spirv::GlobalVariableOp variable = variables[name];
      Type type = variable.getType();
      unsigned nth = usedOfType[{function, type}]++;
      auto [it, first] = merged.try_emplace({type, nth}, variable);
      if (first)
        continue;
      LDBG() << "@" << variable.getSymName() << " of @" << function.getSymName()
             << " shares @" << it->second.getSymName();
      for (spirv::AddressOfOp address : addresses)
        address.setVariable(it->second.getSymName());
      variable.erase();
    }
  }
};

} // namespace
