// A host program for the installed-package test (RunConsumer.cmake): it
// loads libcoro_runtime_wrappers.so into mlir-runner and prints, without a
// launch, so that it needs no device.
module attributes {gpu.container_module} {
  llvm.mlir.global internal constant @message("host program ran\0A\00")
  llvm.func @printf(!llvm.ptr, ...) -> i32
  func.func @main() {
    %text = llvm.mlir.addressof @message : !llvm.ptr
    %n = llvm.call @printf(%text) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr) -> i32
    return
  }
}
