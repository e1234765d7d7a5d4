"""Size figures of the tree, with budgets: run by .ci/run, which fails when one is exceeded.

Prints lines per folder (Python source), the files over 500 lines, the
primitive count (the op table after `import tapeflow`), the debug-flag count
(TAPEFLOW_* environment variables the library reads) and the uses of private
(underscore) names of another module.  A budget is a ceiling, not a goal:
raise one in the same commit that explains why the code needs it.

    python tools/code_stats.py [ROOT] [--no-budgets]
"""
import ast
import os
import re
import subprocess
import sys

FOLDERS = ("runtime", "compiler", "tracer", "tapeflow", "tests", "benchmarks", "examples", "tools")
LIBRARY = ("runtime", "compiler", "tracer", "tapeflow")
FILE_LIMIT = 500

BUDGETS = {  # ceilings, with room for the work in flight; the figures when they were set in the comment
    "lines runtime": 14100,      # doc_data +~30 (a RaggedTensor source's gradient, SparseTensor sources refused); perf_eager3 +~66 (the eager backward's record loop inline with its in-place sum, the matmul dot/matmul split); doc_nn +~50 (max_pool2d explicit paddings, convert_image_dtype int<->int, resize preserve_aspect_ratio); doc_tf +~150 (tensor_scatter_nd_update's last-wins rows, DataType enum numbers, set_diag / diag_part bands, accumulate_n, composite gradients); parity_left2 +~85 (tridiagonal_solve NaN for singular systems, public bool conversion, no-kernel matmul errors); sweep_tf3 +~100 (TF's integer conversion rules, diag off the main diagonal, TensorArray eager errors); 6,496; 8,167 with issue 12 (string and ragged primitives); 8,799 with issue 11's
                                 # binomial/Poisson/gamma samplers (TensorFlow's rejection loops, philox_samplers.py);
                                 # 9,069 with issue 11's complex dtypes, tf.signal FFTs and svd u/v gradients (9,119 with #16);
                                 # 9,932 with the TF ops programs reach for (trig, sequence/shape ops, qr/eigh, erf
                                 # family, the dtype refusals of TF's kernels); 10,225 with issue 15's conv2d and
                                 # depthwise primitives (flipped-filter input gradients, the reused im2col buffer);
                                 # + ~880 with issue 11's gaps (IndexedSlices, LU/expm/tridiagonal_solve,
                                 # Bessel/zeta/igamma/betainc, ctc_loss, space_to_batch); + ~250 with issue 15's BLAS
                                 # thread policy under contention (runtime/blas_threads.py); 11,759 with issue 11's
                                 # igamma a-gradient, sparse ctc_loss labels and Tensor.set_shape (parity_left);
                                 # + ~160 with issue 15's conv2d_filter_grad and max_pool primitives and the padded image
                                 # 12,310 with issue 11's names (eig, edit_distance, fingerprint, unicode offsets, banded/
                                 # tridiagonal linalg composites, approx_max_k); + ~50 with issue 15's eager tape (VJPs
                                 # binding their primitives, the fill of small broadcasts, the dtype memo of backprop);
                                 # 12,621 with issue 11's edge-value parity (TF's Range/ArgMax/FloorMod/integer-mean rules)
                                 # 12,907 with set_shape's ensure_shape op and tf.image.resize's ScaleAndTranslate kernels
                                 # 12,804 with graph set_shape refining (ensure_shape moved from tracer/ to runtime/ops)
                                 # + ~75 with issue 15's avg_pool primitive pair (pool_ops.py: a direct average and its
                                 # transpose, where patches + reduce_sum made three window-sized passes)
                                 # 13,131 with sweep_tfg (graph-hook and variable-init changes, regex by characters)
                                 # + ~90 with issue 15's eager tape (relu_grad, gradients dropped once read, cached
                                 # unbroadcast plans and reduction attrs); + ~60 with issue 15's conv2d_input_grad
                                 # primitive and the tiled conv2d routing (conv_ops.py);
                                 # + ~25 with select_numpy.py (a bitwise select: np.where branches per element); + ~35 with
                                 # heap.py (glibc's thresholds: freed large arrays reused without page faults)
    "lines compiler": 8100,      # 4,624; + ~35 with issue 15's im2col in C (conv_c.py: rows without the padded copy); 5,570 with the tiered start (background compiles, cache lookup without compiling);
                                 # 5,773 with issue 15's kernel Caller (kernel_call.py: a CPython vectorcall type in C,
                                 # since a ctypes call cost most of a tiny compiled call); 5,813 with issue 15's
                                 # OpenMP chunking and thread-team floor; 5,916 with the team chosen at each call
                                 # from the machine's runnable tasks (c_team.py); 5,958 with issue 15's whole-loop plans
                                 # (loop_plan.py: loop vars written in place, inlined elementwise chains, rows
                                 # read in place: the RNN loop gradient 0.57x -> 0.43x NumPy); 6,059 with both; + ~130 with issue
                                 # 15's convolution kernels (conv_c.py: depthwise, max pooling, col2im in C)
                                 # + ~320 with issue 15's compile record (compile_record.py: a warm first call
                                 # replays the passes' and C renderers' decisions from disk)
                                 # + ~400 with issue 15's direct pooling and depthwise kernels (pool_c.py, depthwise_c.py,
                                 # native_table.py: no padded copies, channel blocks in registers; the max-pool gradient
                                 # 18.6 -> 1.2 ms, the depthwise filter gradient 6 -> 1.5 ms on conv_step.py's steps,
                                 # the strided depthwise input gradient 13.9 -> 1.1 ms with its forward, compiled)
                                 # 7,226 at perf_loop2's start; + ~80 with issue 15's straight-line blocks
                                 # (blockgen_c.py: a graph of many small ops, an unrolled RNN's gradient, is one
                                 # C function: 1.3x -> 0.6x NumPy)
                                 # + ~170 with issue 15's tiled conv2d (conv_c.py: im2col a tile of rows + the BLAS's
                                 # gemm per tile, in cache; the ResNet block's conv 54 -> 23 ms CPU, its filter
                                 # gradient 55 -> 19 ms; the input gradient's gemm + col2im a chunk at a time)
                                 # + ~120 with issue 15's tile GEMM (gemm_tile_c.py: AVX-512 loops, where OpenBLAS
                                 # runs its Haswell kernels on this CPU: the ResNet conv 24 -> 14 ms on one thread)
                                 # + ~300 with issue 15's Winograd F(2x2, 3x3) (winograd_c.py: stride-1 3x3 conv2d,
                                 # its input and filter gradients 13.5 -> 8 ms on one thread)
    "lines tracer": 7500,        # doc_data +~40 (input_signature with IteratorSpec / DatasetSpec, call_binding.py split from function.py; TensorArray write/stack errors); doc_tf +~45 (map_fn rows of run-time shapes and SparseTensor elems, numpy_function's TF rules, eager while_loop's container type); parity_left2 +~75 (cond branch-structure errors as TF, eager TensorArray.split of unequal lengths); sweep_tf3 +~70 (TensorArray eager errors, ConcreteFunction inputs/outputs), sweep_tut +5; 5,196; 6,280 with issue 15's conversion cache and the loop gradients' recomputed
                                 # residuals and carried stacks (the RNN's peak memory 3.9x -> 1.03x NumPy's);
                                 # 6,399 with issue 15's call guard (fast_call.py: the repeated call's shortcut);
                                 # 6,600 with issue 11's unknown-rank concrete function (rank_concrete.py) and the subtype dispatch;
                                 # 6,734 with issue 11's AutoGraph reference-test fixes (dict items carried through tensor
                                 # if/while, constant tensor conditions, loop cells shared as in Python; cond_staging.py split);
                                 # + ~360 with fn_graph's tf.gradients / tf.hessians and graph-level API names
    "lines tapeflow": 52700,     # doc_data +~210 (docstring-example gaps: rebatch lists, from_list shapes, int64 vocab tables, table import errors, unicode_encode UTF-16/32); doc_keras +~810 (Keras 3.15 docstring examples: losses' dtype conversion, Mean's per-sample weights, keras.ops nan quantiles / nanarg / histogram / unique / complex views / view, relu options, keras.ops.image pad / patches / sobel / blur / ssim, EinsumDense ellipses, rearrange, unfold / fold, cdist, associative_scan, jvp, perspective_transform, fft / stft / istft / extract_sequences, linspace / logspace endpoint=False and retstep, geomspace, corrcoef, get_item); doc_tf +~400 (RaggedTensor numpy/uniform_row_length/nested_value_rowids, KerasTensor refusals, TensorSpec.from_spec, accumulate_n, composite gradient sources); lead_mirrored +~45 (aggregated writes of mirrored variables); doc_nn +~330 (TF docstring examples: adjust_hue/saturation as TF's kernels, sparse bincount count ops, ragged from_tensor nested lengths, v1 RaggedTensorValue / glimpse); keras_left2 +~1,260 (Pipeline, RandomSaturation/Hue/Sharpness; keras.ops fft/stft/unique/argpartition/histogram/conv variants/nan args/cdist/complex views; MixUp, CutMix, AutoContrast and five colour augmentations; Functional get_config in Keras 3's structure; keras.random gamma/beta/binomial; TextVectorization one_hot); sweep_tut +~80 (tf.data closure values at map time, dict key order, proto scalar coercion, py_function strings, crossentropy rank checks); kex3 ~+1,100 (HashedCrossing, Keras 3's Normalization state, keras.ops.nn/linalg/statistics/array and bit functions, attention, keras.utils.FeatureSpace: one of the two FeatureSpaces written by kex3 and kparity kept); kparity +~160 (its FeatureSpace and HashedCrossing dropped for kex3's at the merge; Keras 3 checkpoint names: version 2 of the format, TF's breadth-first paths and aliases, optimizer _variables/_trainable_variables; ops as operation classes; jit_compile; concatenate promotion); sweep_tf3 +~700 (tf.compat.v1 as TF 2 answers it eagerly: v1 summary protos, v1 Saver(var_list), Session/placeholders/collections; parity fixes of tf3_*); +~150 with parity_left (Keras dtype names, linop dispatch, StagingError); +~200 with issue 14's MPI_Allreduce from C (distribute/mpi_direct.py); sweep_tfg +818 (tf.compat.v1 eager names: variables/scopes, v1 initializers, ops, string_split, legacy image resizes, decays, Adadelta/Ftrl/Proximal optimizers; skipgrams; TextVectorization ragged); 15,479; 21,445 with issue 12 (tf.io, records, CSV, text layers, strings); 23,491 with issues 12-14 and 17 together; issue 11 adds ~640 (tf.image boxes, NMS, glimpses, jpeg quality, ms-ssim; tf.nn argmax pooling, morphology, ctc labels, safe embeddings); fn_graph's graph-level API (DeviceSpec, TypeSpecs, config switches, tf.test helpers) ~+500; api_nn_random's tf.nn/tf.random/tf.math.special names ~+2,000 (samplers, sampled losses, special functions, NMS padded, beam CTC, fractional pools); api_linalg's LinearOperator family (linalg_operators/, ~3,060); keras_mixed ~+200 (mixed precision, loss scaling, optimizers, CTC/Circle); api_data_io ~+1,400 (tf.data.experimental functions, Optional, lookup tables, tf.io parsers, crosses, tf.queue); api_tnp's tf.experimental.numpy ~+1,300 (229 names);
                                 # 30,277 with the API table, Keras metrics/losses/utils/backend, layers, keras.ops,
                                 # tf.lookup/image/data/train names, MirroredStrategy and FILE sharding (issues 11, 14, 16);
                                 # 31,428 with the image codecs and image_dataset_from_directory, Keras's augmentation
                                 # layers and tf.distribute's public types (issues 11, 14); 33,005 with issue 11's
                                 # guide sweep (ExtensionType, stateful RNNs, Dataset.save/load) and the peer adapters; 34,279 with
                                 # the API gaps of 2026-12-02 (tf.signal, tf.sets, tf.audio, tf.sparse ops, image augmentation)
                                 # 36,050 with issue 11's Keras sweep 5 (summary's box table, keras.ops type promotion,
                                 # layers' build configs and own-variable stores); 38,800 with the tf.nn/random/math.special
                                 # gaps (candidate samplers, sampled losses, special functions, shuffles, boxes, mdct)
    "files over 500 lines": 1,   # 4; 0 after the six were split (2026-12-02); one may pass 500 between splits
    "primitives": 231,           # 231 with kex3's hashed_cross (Keras HashedCrossing: FingerprintCat64 chains, a host kernel); 122; 159 with issue 12; 186 with complex/FFT (7), trig (7), erfc/ndtri/nextafter/qr/eigh,
                                 # the parametric random samplers and the all-gather; 194 with the eight image codec
                                 # ops (TF's DecodePng/Jpeg/Gif/Bmp/Image, EncodePng/Jpeg, ExtractJpegShape); 201 with
                                 # lu, bessel_i0e/i1e, zeta, igamma/igammac and betainc (issue 11); 207 with tf.sets'
                                 # set_operation/set_size and tf.bitcast (kernels with no composite form); + 2 with issue
                                 # 15's conv2d_filter_grad (one GEMM on the im2col rows) and max_pool (TF's routing of a
                                 # tie to the window's first maximum; forward, scatter and gather in one); 217 with
                                 # issue 11's eig (LAPACK geev), edit_distance and fingerprint (host kernels, no
                                 # composite form); 218 with the candidate samplers (one host kernel: rejection draws); 219 with
                                 # tf.math.special (one host kernel, its function an attr: series/quadrature in NumPy); 220 with
                                 # random_index_shuffle (TF's Simon cipher with cycle walking: bit loops on the host); 221 with
                                 # sample_distorted_bounding_box (the kernel's sequential crop search); 222 with ctc_beam_search
                                 # (a prefix-tree beam search with data-dependent pruning); 223 with isotonic_segments (sequential PAV); 224
                                 # with stateless_parameterized_truncated_normal (the kernel's rejection loops); 227 with
                                 # avg_pool / avg_pool_grad (one pass per window where patches + reduce_sum took three)
                                 # and max_pool_route (max_pool now also returns its maxima's positions: the gradient
                                 # routes by them instead of scanning the windows again); 228 with depthwise_input_grad
                                 # (the strided route in one pass, where a window-sized product went to patches_grad)
                                 # 225 with relu_grad (TF's ReluGrad: one dispatch per eager relu backward, as tanh_grad)
                                 # 230 with conv2d_input_grad (conv2d's strided input gradient and conv2d_transpose:
                                 # gemm + col2im a chunk at a time in C, where a window-sized product went to patches_grad)
    "flags": 12,                 # 8
    "private names used across modules": 90,  # perf_eager3: linalg_ops reads blas_threads._current inline (a call per eager product cost more); keras_left2: ops_stats takes keras.ops._result_dtype; 60; 80 after the merges of issue 11's branches (to bring down);
                                              # 89 with issue 15's pool_ops.py (conv_ops' NHWC argument helpers)
}
_FLAG = re.compile(r"""["'](TAPEFLOW_[A-Z0-9_]+)["']""")


def python_files(root, folder):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield os.path.join(dirpath, name)


def count_lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def private_uses(path):
    """Uses, in `path`, of underscore names that another module defines: `from m
    import _x` and `m._x` where `m` is a module this file imported."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    modules, uses = set(), 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    uses += 1
                elif a.name[:1].islower():
                    modules.add(a.asname or a.name)  # `from . import array_ops as A`: maybe a module
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name) and node.value.id in modules):
            uses += 1
    return uses


def library_flags(root):
    flags = set()
    for folder in LIBRARY:
        for path in python_files(root, folder):
            with open(path, encoding="utf-8") as f:
                flags.update(_FLAG.findall(f.read()))
    return flags


def primitive_count(root):
    code = "import tapeflow; from tapeflow.runtime.registry import PRIMITIVES; print(len(PRIMITIVES))"
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def figures(root):
    stats, big = {}, []
    for folder in FOLDERS:
        total = 0
        for path in python_files(root, folder):
            n = count_lines(path)
            total += n
            if n > FILE_LIMIT and folder in LIBRARY:
                big.append((n, os.path.relpath(path, root)))
        stats[f"lines {folder}"] = total
    stats["files over 500 lines"] = len(big)
    stats["primitives"] = primitive_count(root)
    stats["flags"] = len(library_flags(root))
    stats["private names used across modules"] = sum(
        private_uses(p) for folder in LIBRARY for p in python_files(root, folder))
    return stats, sorted(big, reverse=True)


def over_budget(stats, budgets=BUDGETS):
    return [(k, stats[k], limit) for k, limit in budgets.items() if stats.get(k, 0) > limit]


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    stats, big = figures(root)
    for key, value in stats.items():
        limit = BUDGETS.get(key)
        print(f"{key:<36} {value:>7,}" + (f"   (budget {limit:,})" if limit is not None else ""))
    for n, path in big:
        print(f"  over {FILE_LIMIT} lines: {path} ({n})")
    broken = [] if "--no-budgets" in argv else over_budget(stats)
    for key, value, limit in broken:
        print(f"OVER BUDGET: {key} is {value:,}, the budget {limit:,} (tools/code_stats.py)", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
