extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, float *__restrict__ out0, const int64_t R, const int64_t C) {
  const float v17 = __int_as_float((int)0x3d000000u);
  const float v11 = __int_as_float((int)0x3727c5acu);
//@ row_loop
    double acc3 = 0;
//@ column_loop_x0
      acc3 += x0;
    }
    acc3 = tf_block_reduce(acc3, TfAdd());
    const float v3 = (float)acc3;
    const float v18 = (v3 * v17);
    double acc8 = 0;
//@ column_loop_x0
      const float v6 = (x0 - v18);
      const float v7 = (v6 * v6);
      acc8 += v7;
    }
    acc8 = tf_block_reduce(acc8, TfAdd());
    const float v8 = (float)acc8;
    const float v20 = (v8 * v17);
    const float v12 = (v20 + v11);
    const float v13 = (1 / sqrtf(v12));
//@ column_loop_x0
      const float x1 = in1[c];
      const float x2 = in2[c];
      const float v6 = (x0 - v18);
      const float v14 = (v6 * v13);
      const float v15 = (v14 * x1);
      const float v16 = (v15 + x2);
      out0[r * C + c] = v16;
    }
  }
}
