# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
