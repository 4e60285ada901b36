// The state machine's dispatch loop left tokens it has no subroutine for in
// an empty default case: a loop that spins on an unchanged token. LLVM made
// that a self-loop in front of the jump table of the dispatch, and NVIDIA's
// ptxas (CUDA 13.0, sm_75 to sm_90) crashed with a segmentation fault on the
// PTX (coro-fuzz seed 2002 under the state machine, reduced). Such a token
// now ends the instance.
// REQUIRES: ptxas
// RUN: coro-run %s --coro=coro_fuzz_2002 --grid=1 --arg=592 --arg=-35.0 --buffer=i32:64:iota --buffer=i32:6:zeros --buffer=i64:2:zeros --buffer=i32:8:iota --scheduler=state-machine --emit=ptx --chip=sm_90 --emit-to=%t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: coro-run %s --coro=coro_fuzz_2002 --grid=1 --arg=592 --arg=-35.0 --buffer=i32:64:iota --buffer=i32:6:zeros --buffer=i64:2:zeros --buffer=i32:8:iota --scheduler=state-machine --emit=ptx --chip=sm_75 --emit-to=%t.sm75.ptx
// RUN: %ptxas -arch=sm_75 %t.sm75.ptx -o /dev/null
// RUN: coro-run %s --coro=coro_fuzz_2002 --grid=4 --arg=592 --arg=-35.0 --buffer=i32:64:iota --buffer=i32:24:zeros --buffer=i64:2:zeros --buffer=i32:8:iota --scheduler=state-machine --check | FileCheck %s
// CHECK: check: state-machine matches the mega-kernel reference
coro.func @c1(%p1: f32, %table: memref<?xi32>, %out32: memref<?xi32>, %acc: memref<?xi32>, %a0: memref<8xi32>) {
  %id = coro.id : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c5_i8 = arith.constant 5 : i8
  %while_7:1 = scf.while (%trip_1 = %c0_i32) : (i32) -> (i32) {
    %trip_2 = arith.addi %trip_1, %c1_i32 : i32
    coro.suspend
    %t_3 = arith.cmpi sle, %trip_2, %c1_i32 : i32
    %t_4 = arith.cmpi ule, %c5_i8, %c5_i8 : i8
    %go_5 = arith.andi %t_3, %t_4 : i1
    scf.condition(%go_5) %trip_2 : i32
  } do {
  ^bb0(%trip_6: i32):
    coro.suspend "s2"
    coro.suspend "s3"
    scf.yield %trip_6 : i32
  }
  coro.suspend
  coro.return
}

coro.func @coro_fuzz_2002(%x0: i32, %x1: f32, %table: memref<?xi32>, %out32: memref<?xi32>, %out64: memref<?xi64>, %acc: memref<?xi32>) {
  %id = coro.id : index
  %c1_i32 = arith.constant 1 : i32
  %c0_index = arith.constant 0 : index
  %c8_i32 = arith.constant 8 : i32
  %c1_index = arith.constant 1 : index
  %c15_i32 = arith.constant 15 : i32
  %c2_index = arith.constant 2 : index
  %c22_i32 = arith.constant 22 : i32
  %c3_index = arith.constant 3 : index
  %c29_i32 = arith.constant 29 : i32
  %c4_index = arith.constant 4 : index
  %c36_i32 = arith.constant 36 : i32
  %c5_index = arith.constant 5 : index
  %c43_i32 = arith.constant 43 : i32
  %c6_index = arith.constant 6 : index
  %c50_i32 = arith.constant 50 : i32
  %c7_index = arith.constant 7 : index
  %cm3_f32 = arith.constant -3.0 : f32
  %cm2_f32 = arith.constant -2.0 : f32
  %cm1_f32 = arith.constant -1.0 : f32
  %c0_f32 = arith.constant 0.0 : f32
  %c1_f32 = arith.constant 1.0 : f32
  %c2_f32 = arith.constant 2.0 : f32
  %c3_f32 = arith.constant 3.0 : f32
  %c4_f32 = arith.constant 4.0 : f32
  %c5_i32 = arith.constant 5 : i32
  %cm2_f16 = arith.constant -2.0 : f16
  %c4095_i32 = arith.constant 4095 : i32
  %c8_index = arith.constant 8 : index
  %c1048576_f32 = arith.constant 1048576.0 : f32
  %cm1048576_f32 = arith.constant -1048576.0 : f32
  %c0_i32 = arith.constant 0 : i32
  %c3_i32 = arith.constant 3 : i32
  %c2_i32 = arith.constant 2 : i32
  %c7_i32 = arith.constant 7 : i32
  %id32_1 = arith.index_cast %id : index to i32
  %a0_2 = memref.alloca() : memref<8xi32>
  %t_3 = arith.addi %id32_1, %c1_i32 : i32
  memref.store %t_3, %a0_2[%c0_index] : memref<8xi32>
  %t_4 = arith.addi %id32_1, %c8_i32 : i32
  memref.store %t_4, %a0_2[%c1_index] : memref<8xi32>
  %t_5 = arith.addi %id32_1, %c15_i32 : i32
  memref.store %t_5, %a0_2[%c2_index] : memref<8xi32>
  %t_6 = arith.addi %id32_1, %c22_i32 : i32
  memref.store %t_6, %a0_2[%c3_index] : memref<8xi32>
  %t_7 = arith.addi %id32_1, %c29_i32 : i32
  memref.store %t_7, %a0_2[%c4_index] : memref<8xi32>
  %t_8 = arith.addi %id32_1, %c36_i32 : i32
  memref.store %t_8, %a0_2[%c5_index] : memref<8xi32>
  %t_9 = arith.addi %id32_1, %c43_i32 : i32
  memref.store %t_9, %a0_2[%c6_index] : memref<8xi32>
  %t_10 = arith.addi %id32_1, %c50_i32 : i32
  memref.store %t_10, %a0_2[%c7_index] : memref<8xi32>
  %a1_11 = memref.alloca() : memref<8xf32>
  memref.store %cm3_f32, %a1_11[%c0_index] : memref<8xf32>
  memref.store %cm2_f32, %a1_11[%c1_index] : memref<8xf32>
  memref.store %cm1_f32, %a1_11[%c2_index] : memref<8xf32>
  memref.store %c0_f32, %a1_11[%c3_index] : memref<8xf32>
  memref.store %c1_f32, %a1_11[%c4_index] : memref<8xf32>
  memref.store %c2_f32, %a1_11[%c5_index] : memref<8xf32>
  memref.store %c3_f32, %a1_11[%c6_index] : memref<8xf32>
  memref.store %c4_f32, %a1_11[%c7_index] : memref<8xf32>
  coro.await @c1(%x1, %table, %out32, %acc, %a0_2) : (f32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<8xi32>) -> ()
  %old_12 = memref.atomic_rmw addi %c5_i32, %acc[%c0_index] : (i32, memref<?xi32>) -> i32
  %t_13 = arith.truncf %x1 : f32 to f16
  %t_14 = arith.cmpf olt, %cm2_f16, %t_13 : f16
  scf.if %t_14 {
    %t_15 = arith.andi %x0, %c4095_i32 : i32
    %ix_16 = arith.index_castui %t_15 : i32 to index
    %ix_17 = arith.remui %ix_16, %c8_index : index
    %t_18 = arith.minimumf %c1_f32, %c1048576_f32 : f32
    %t_19 = arith.maximumf %t_18, %cm1048576_f32 : f32
    memref.store %t_19, %a1_11[%ix_17] : memref<8xf32>
    %t_20 = arith.andi %x0, %c4095_i32 : i32
    %ix_21 = arith.index_castui %t_20 : i32 to index
    %ix_22 = arith.remui %ix_21, %c8_index : index
    %ld_23 = memref.load %a1_11[%ix_22] : memref<8xf32>
    %t_24 = arith.extf %ld_23 : f32 to f64
    %t_25 = arith.fptosi %t_24 : f64 to i64
    %t_26 = arith.trunci %t_25 : i64 to i32
    %t_27 = arith.andi %t_26, %c4095_i32 : i32
    %ix_28 = arith.index_castui %t_27 : i32 to index
    %ix_29 = arith.remui %ix_28, %c3_index : index
    scf.index_switch %ix_29
    case 0 {
      coro.suspend "s1"
      %at_30 = arith.muli %id, %c6_index : index
      %at_31 = arith.addi %at_30, %c4_index : index
      memref.store %x0, %out32[%at_31] : memref<?xi32>
      scf.yield
    }
    case 1 {
      coro.suspend "s3"
      coro.suspend "s4"
      scf.yield
    }
    default {
      %while_38:1 = scf.while (%trip_32 = %c0_i32) : (i32) -> (i32) {
        %trip_33 = arith.addi %trip_32, %c1_i32 : i32
        %t_34 = arith.cmpi sle, %trip_33, %c3_i32 : i32
        %t_35 = arith.trunci %x0 : i32 to i1
        %go_36 = arith.andi %t_34, %t_35 : i1
        scf.condition(%go_36) %trip_33 : i32
      } do {
      ^bb0(%trip_37: i32):
        coro.await @c1(%x1, %table, %out32, %acc, %a0_2) : (f32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<8xi32>) -> ()
        scf.yield %trip_37 : i32
      }
      scf.yield
    }
  } else {
    coro.await @c1(%c1_f32, %table, %out32, %acc, %a0_2) : (f32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<8xi32>) -> ()
  }
  %ld_39 = memref.load %a0_2[%c3_index] : memref<8xi32>
  %t_40 = arith.andi %ld_39, %c4095_i32 : i32
  %ix_41 = arith.index_castui %t_40 : i32 to index
  %ix_42 = arith.remui %ix_41, %c3_index : index
  scf.index_switch %ix_42
  case 0 {
    scf.yield
  }
  case 1 {
    %t_43 = arith.index_cast %id : index to i32
    %t_44 = arith.andi %t_43, %c4095_i32 : i32
    %ix_45 = arith.index_castui %t_44 : i32 to index
    %ix_46 = arith.remui %ix_45, %c8_index : index
    %t_47 = arith.minimumf %x1, %c1048576_f32 : f32
    %t_48 = arith.maximumf %t_47, %cm1048576_f32 : f32
    memref.store %t_48, %a1_11[%ix_46] : memref<8xf32>
    coro.await @c1(%c1_f32, %table, %out32, %acc, %a0_2) : (f32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<8xi32>) -> ()
    coro.await @c1(%c1_f32, %table, %out32, %acc, %a0_2) : (f32, memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<8xi32>) -> ()
    scf.yield
  }
  default {
    scf.yield
  }
  %ld_49 = memref.load %a1_11[%c1_index] : memref<8xf32>
  %t_50 = arith.fptosi %ld_49 : f32 to i32
  %t_51 = arith.muli %t_50, %c2_i32 : i32
  %ld_52 = memref.load %a1_11[%c2_index] : memref<8xf32>
  %t_53 = arith.fptosi %ld_52 : f32 to i32
  %t_54 = arith.muli %t_53, %c3_i32 : i32
  %t_55 = arith.addi %t_51, %t_54 : i32
  %ld_56 = memref.load %a1_11[%c3_index] : memref<8xf32>
  %t_57 = arith.fptosi %ld_56 : f32 to i32
  %t_58 = arith.addi %t_55, %t_57 : i32
  %ld_59 = memref.load %a1_11[%c4_index] : memref<8xf32>
  %t_60 = arith.fptosi %ld_59 : f32 to i32
  %t_61 = arith.muli %t_60, %c5_i32 : i32
  %t_62 = arith.addi %t_58, %t_61 : i32
  %ld_63 = memref.load %a1_11[%c5_index] : memref<8xf32>
  %t_64 = arith.fptosi %ld_63 : f32 to i32
  %t_65 = arith.addi %t_62, %t_64 : i32
  %ld_66 = memref.load %a1_11[%c6_index] : memref<8xf32>
  %t_67 = arith.fptosi %ld_66 : f32 to i32
  %t_68 = arith.muli %t_67, %c7_i32 : i32
  %t_69 = arith.addi %t_65, %t_68 : i32
  %ld_70 = memref.load %a1_11[%c7_index] : memref<8xf32>
  %t_71 = arith.fptosi %ld_70 : f32 to i32
  %t_72 = arith.muli %t_71, %c8_i32 : i32
  %t_73 = arith.addi %t_69, %t_72 : i32
  %t_74 = arith.addi %c1_i32, %t_73 : i32
  %at_75 = arith.muli %id, %c6_index : index
  %at_76 = arith.addi %at_75, %c1_index : index
  memref.store %t_74, %out32[%at_76] : memref<?xi32>
  coro.return
}
