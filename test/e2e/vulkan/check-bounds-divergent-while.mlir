// coro-run --check-bounds on loops whose condition region loads, and whose
// trip count differs between the lanes of a subgroup. Every index here is in
// bounds (each is taken modulo 64, or 8, for a buffer of that size), so no
// access may be reported. On lavapipe (Mesa 22.3.6) both were false reports
// until coro-spirv-structurize-while moved such condition regions into the
// loop body: the bounds notes the header wrote for a lane masked off in a
// later pass (the size it loads is then 0) reached the lane that had left
// (Bug 1 of test/e2e/known/driver/README.md).
// - coro-fuzz seed 2002 (wf-bounds, pt-bounds), reduced: instance 0 leaves
//   the scf.while after one pass, instance 1 makes a second; it reported
//   "index 1 in dimension 0 of size 0; instance 0". Run under the wavefront
//   with 64 and with 1 lane per workgroup.
// - coro-fuzz seed 2507 (wf-bounds), reduced (coro_fuzz_2507 below): the
//   loop carries a vector<4xi32>; it reported "index 11 in dimension 0 of
//   size 0; instance 11" under every scheduler.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=coro_fuzz_2002 --grid=2 --arg=592 --arg=-35.0 --buffer=i32:64:file=%S/Inputs/seed2002-table.bin --buffer=i32:12:zeros --buffer=i64:4:zeros --buffer=i32:8:iota --scheduler=wavefront --check-bounds --check --quiet
// RUN: coro-run %s --coro=coro_fuzz_2002 --grid=2 --arg=592 --arg=-35.0 --buffer=i32:64:file=%S/Inputs/seed2002-table.bin --buffer=i32:12:zeros --buffer=i64:4:zeros --buffer=i32:8:iota --scheduler=wavefront --wavefront-workgroup-size=1 --check-bounds --check --quiet
// RUN: coro-run %s --coro=coro_fuzz_2507 --grid=13 --arg=-301 --arg=62.0 --arg=-19,10,48,19 --buffer=i32:64:file=%S/Inputs/seed2507-table.bin --buffer=i32:91:zeros --buffer=i64:39:zeros --buffer=i32:8:iota --scheduler=megakernel --check-bounds --check --quiet
// RUN: coro-run %s --coro=coro_fuzz_2507 --grid=13 --arg=-301 --arg=62.0 --arg=-19,10,48,19 --buffer=i32:64:file=%S/Inputs/seed2507-table.bin --buffer=i32:91:zeros --buffer=i64:39:zeros --buffer=i32:8:iota --scheduler=state-machine --check-bounds --check --quiet
// RUN: coro-run %s --coro=coro_fuzz_2507 --grid=13 --arg=-301 --arg=62.0 --arg=-19,10,48,19 --buffer=i32:64:file=%S/Inputs/seed2507-table.bin --buffer=i32:91:zeros --buffer=i64:39:zeros --buffer=i32:8:iota --scheduler=wavefront --check-bounds --check --quiet
// RUN: coro-run %s --coro=coro_fuzz_2507 --grid=13 --arg=-301 --arg=62.0 --arg=-19,10,48,19 --buffer=i32:64:file=%S/Inputs/seed2507-table.bin --buffer=i32:91:zeros --buffer=i64:39:zeros --buffer=i32:8:iota --scheduler=persistent --check-bounds --check --quiet
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
  %c0_i32 = arith.constant 0 : i32
  %c4095_i32 = arith.constant 4095 : i32
  %c8_index = arith.constant 8 : index
  %c64_index = arith.constant 64 : index
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
  %t_11 = arith.index_cast %id : index to i32
  %while_35:1 = scf.while (%trip_12 = %c0_i32) : (i32) -> (i32) {
    %trip_13 = arith.addi %trip_12, %c1_i32 : i32
    %t_14 = arith.cmpi sle, %trip_13, %c1_i32 : i32
    %t_15 = arith.andi %t_11, %c4095_i32 : i32
    %ix_16 = arith.index_castui %t_15 : i32 to index
    %ix_17 = arith.remui %ix_16, %c8_index : index
    %ld_18 = memref.load %a0_2[%ix_17] : memref<8xi32>
    %t_19 = arith.andi %ld_18, %c4095_i32 : i32
    %ix_20 = arith.index_castui %t_19 : i32 to index
    %ix_21 = arith.remui %ix_20, %c64_index : index
    %tab_22 = memref.load %table[%ix_21] : memref<?xi32>
    %t_23 = arith.andi %tab_22, %c4095_i32 : i32
    %ix_24 = arith.index_castui %t_23 : i32 to index
    %ix_25 = arith.remui %ix_24, %c64_index : index
    %tab_26 = memref.load %table[%ix_25] : memref<?xi32>
    %t_27 = arith.trunci %tab_26 : i32 to i8
    %t_28 = arith.trunci %t_27 : i8 to i1
    %go_29 = arith.andi %t_14, %t_28 : i1
    scf.condition(%go_29) %trip_13 : i32
  } do {
  ^bb0(%trip_30: i32):
    %t_31 = arith.index_cast %id : index to i32
    %t_32 = arith.andi %t_31, %c4095_i32 : i32
    %ix_33 = arith.index_castui %t_32 : i32 to index
    %ix_34 = arith.remui %ix_33, %c8_index : index
    memref.store %c1_i32, %a0_2[%ix_34] : memref<8xi32>
    scf.yield %trip_30 : i32
  }
  coro.return
}

coro.func @coro_fuzz_2507(%x0: i32, %x1: f32, %x2: vector<4xi32>, %table: memref<?xi32>, %out32: memref<?xi32>, %out64: memref<?xi64>, %acc: memref<?xi32>) {
  %id = coro.id : index
  %c1_i32 = arith.constant 1 : i32
  %c0_index = arith.constant 0 : index
  %c4_index = arith.constant 4 : index
  %c5_index = arith.constant 5 : index
  %c6_index = arith.constant 6 : index
  %c7_index = arith.constant 7 : index
  %cm3_f32 = arith.constant -3.0 : f32
  %cm1_f32 = arith.constant -1.0 : f32
  %c0_f32 = arith.constant 0.0 : f32
  %c1_f32 = arith.constant 1.0 : f32
  %c2_f32 = arith.constant 2.0 : f32
  %c3_f32 = arith.constant 3.0 : f32
  %c4_f32 = arith.constant 4.0 : f32
  %c1_index = arith.constant 1 : index
  %c2_index = arith.constant 2 : index
  %c3_index = arith.constant 3 : index
  %cm2_f32 = arith.constant -2.0 : f32
  %c7_f32 = arith.constant 7.0 : f32
  %c1048576_f32 = arith.constant 1048576.0 : f32
  %cm1048576_f32 = arith.constant -1048576.0 : f32
  %c4095_i32 = arith.constant 4095 : i32
  %c64_index = arith.constant 64 : index
  %c8_index = arith.constant 8 : index
  %c4096_index = arith.constant 4096 : index
  %c0_i32 = arith.constant 0 : i32
  %c4_i32 = arith.constant 4 : i32
  %cm6_f32 = arith.constant -6.0 : f32
  %c7_i32 = arith.constant 7 : i32
  %c31_i32 = arith.constant 31 : i32
  %cst43_v4i32 = arith.constant dense<[1, 3, 9, 27]> : vector<4xi32>
  %a1_11 = memref.alloca() : memref<8xf32>
  memref.store %cm3_f32, %a1_11[%c0_index] : memref<8xf32>
  memref.store %cm2_f32, %a1_11[%c1_index] : memref<8xf32>
  memref.store %cm1_f32, %a1_11[%c2_index] : memref<8xf32>
  memref.store %c0_f32, %a1_11[%c3_index] : memref<8xf32>
  memref.store %c1_f32, %a1_11[%c4_index] : memref<8xf32>
  memref.store %c2_f32, %a1_11[%c5_index] : memref<8xf32>
  memref.store %c3_f32, %a1_11[%c6_index] : memref<8xf32>
  memref.store %c4_f32, %a1_11[%c7_index] : memref<8xf32>
  %t_12 = arith.minimumf %c7_f32, %c1048576_f32 : f32
  %t_13 = arith.maximumf %t_12, %cm1048576_f32 : f32
  %while_57:2 = scf.while (%trip_33 = %c0_i32, %v4i32_2_34 = %x2) : (i32, vector<4xi32>) -> (i32, vector<4xi32>) {
    %trip_35 = arith.addi %trip_33, %c1_i32 : i32
    %t_36 = arith.cmpi sle, %trip_35, %c4_i32 : i32
    %t_37 = arith.index_cast %id : index to i32
    %t_38 = arith.andi %t_37, %c4095_i32 : i32
    %ix_39 = arith.index_castui %t_38 : i32 to index
    %ix_40 = arith.remui %ix_39, %c64_index : index
    %tab_41 = memref.load %table[%ix_40] : memref<?xi32>
    %t_42 = arith.andi %tab_41, %c4095_i32 : i32
    %ix_43 = arith.index_castui %t_42 : i32 to index
    %ix_44 = arith.remui %ix_43, %c8_index : index
    %ld_45 = memref.load %a1_11[%ix_44] : memref<8xf32>
    %t_46 = arith.mulf %cm6_f32, %ld_45 : f32
    %t_47 = arith.cmpf ogt, %t_13, %t_46 : f32
    %go_48 = arith.andi %t_36, %t_47 : i1
    scf.condition(%go_48) %trip_35, %v4i32_2_34 : i32, vector<4xi32>
  } do {
  ^bb0(%trip_49: i32, %v4i32_2_50: vector<4xi32>):
    %t_51 = arith.andi %x0, %c4095_i32 : i32
    %ix_52 = arith.index_castui %t_51 : i32 to index
    %ix_53 = arith.remui %ix_52, %c64_index : index
    %tab_54 = memref.load %table[%ix_53] : memref<?xi32>
    %t_55 = arith.index_cast %id : index to i32
    %t_56 = vector.from_elements %tab_54, %x0, %c7_i32, %t_55 : vector<4xi32>
    scf.yield %trip_49, %t_56 : i32, vector<4xi32>
  }
  %t_58 = arith.index_cast %id : index to i32
  %t_59 = arith.andi %t_58, %c4095_i32 : i32
  %ix_60 = arith.index_castui %t_59 : i32 to index
  %ix_61 = arith.remui %ix_60, %c8_index : index
  %ld_62 = memref.load %a1_11[%ix_61] : memref<8xf32>
  %t_63 = arith.extf %ld_62 : f32 to f64
  %t_64 = arith.fptosi %t_63 : f64 to i64
  %t_65 = arith.trunci %t_64 : i64 to i32
  %t_66 = arith.andi %t_65, %c4095_i32 : i32
  %ix_67 = arith.index_castui %t_66 : i32 to index
  %t_68 = vector.extract %while_57#1[3] : i32 from vector<4xi32>
  %t_69 = arith.andi %t_68, %c4095_i32 : i32
  %ix_70 = arith.index_castui %t_69 : i32 to index
  %t_71 = arith.ori %ix_67, %ix_70 : index
  %ix_72 = arith.remui %t_71, %c4096_index : index
  %t_162 = arith.muli %while_57#1, %cst43_v4i32 : vector<4xi32>
  %t_163 = vector.reduction <add>, %t_162 : vector<4xi32> into i32
  %t_164 = arith.muli %t_163, %c31_i32 : i32
  %t_165 = arith.index_cast %ix_72 : index to i32
  %t_166 = arith.addi %t_164, %t_165 : i32
  %t_167 = arith.extsi %t_166 : i32 to i64
  %at_168 = arith.muli %id, %c3_index : index
  %at_169 = arith.addi %at_168, %c2_index : index
  memref.store %t_167, %out64[%at_169] : memref<?xi64>
  coro.return
}
