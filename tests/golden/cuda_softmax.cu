extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, float *__restrict__ out0, const int64_t R, const int64_t C) {
//@ row_loop
    int nan1 = 0; float acc1 = -INFINITY;
//@ column_loop_x0
      acc1 = x0 > acc1 ? x0 : acc1;
      nan1 |= (x0 != x0);
    }
    acc1 = tf_block_reduce(acc1, TfMax());
    nan1 = tf_block_reduce(nan1, TfOr());
    if (nan1) acc1 = NAN;
    const float v1 = (float)acc1;
    double acc5 = 0;
//@ column_loop_x0
      const float v3 = (x0 - v1);
      const float v4 = expf(v3);
      acc5 += v4;
    }
    acc5 = tf_block_reduce(acc5, TfAdd());
    const float v5 = (float)acc5;
//@ column_loop_x0
      const float v3 = (x0 - v1);
      const float v4 = expf(v3);
      const float v6 = (v4 / v5);
      out0[r * C + c] = v6;
    }
  }
}
