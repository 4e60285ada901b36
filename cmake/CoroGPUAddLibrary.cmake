# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# coro_add_library(name <sources...> [DEPENDS targets...] [LINK_LIBS libs...]
#                  [MLIR_LIBS libs...])
#
# A static, position-independent CoroGPU library. MLIR_LIBS are linked through
# mlir_target_link_libraries so they resolve to libMLIR.so; LINK_LIBS are our
# own libraries. The library joins the CoroGPUTargets export set so that other
# projects can use it through find_package(CoroGPU).
function(coro_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    DISABLE_INSTALL
    EXCLUDE_FROM_LIBMLIR
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  # The runtime's ABI headers (corogpu/runtime/*ABI.h: plain C++, the
  # contracts between kernels and runtime) are public headers of the
  # compiler too; they install next to ours.
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/include>
    $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name} EXPORT CoroGPUTargets
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib)
  set_property(GLOBAL APPEND PROPERTY CORO_LIBS ${name})
endfunction()

# coro_install_binary(target DESTINATION dir [LIBRARY])
#
# Installs a tool (or, with LIBRARY, a loadable module) so that it starts
# from the install tree: its RUNPATH names our lib/ and the LLVM/MLIR 22
# library directory (libMLIR.so and libLLVM.so are there, not in ours).
function(coro_install_binary target)
  cmake_parse_arguments(ARG "LIBRARY" "DESTINATION" "" ${ARGN})
  set_target_properties(${target} PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")
  if(ARG_LIBRARY)
    install(TARGETS ${target} LIBRARY DESTINATION ${ARG_DESTINATION})
  else()
    install(TARGETS ${target} RUNTIME DESTINATION ${ARG_DESTINATION})
  endif()
endfunction()
