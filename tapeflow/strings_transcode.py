"""tf.strings.unicode_transcode: every string decoded from input_encoding (any Python codec
name, as ICU takes many) and encoded as UTF-8, UTF-16-BE or UTF-32-BE (TF's three outputs).
errors: 'replace' (replacement_char per bad sequence, Python's rule for what a sequence is),
'ignore', 'strict' (InvalidArgumentError).  Eager and in graphs (a numpy_function)."""
import codecs

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import convert_to_tensor

OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")


def _transcode_one(data, source, target, errors, replacement, replace_control):
    text = data.decode(source, errors="strict" if errors == "strict" else "replace" if errors == "replace"
                       else "ignore")
    if errors == "replace" and replacement != 0xFFFD:
        text = text.replace("\ufffd", chr(replacement))
    if replace_control:
        text = "".join(chr(replacement) if ord(c) < 0x20 else c for c in text)
    return text.encode(target)


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    from tapeflow.tracer.py_function import numpy_function
    from tapeflow.tracer.signature import TensorSpec
    if output_encoding not in OUTPUT_ENCODINGS:
        raise InvalidArgumentError(with_location(
            f"unicode_transcode: Value for attr 'output_encoding' of \"{output_encoding}\" is not in the list of "
            f"allowed values: {', '.join(OUTPUT_ENCODINGS)}"))
    if errors not in ("replace", "ignore", "strict"):
        raise InvalidArgumentError(with_location(f"unicode_transcode: errors must be replace, ignore or strict, "
                                                 f"got {errors!r}"))
    try:
        source = codecs.lookup(input_encoding).name
    except LookupError:
        raise InvalidArgumentError(with_location(f"unicode_transcode: unknown input_encoding {input_encoding!r}")) \
            from None
    target = output_encoding.lower()
    strings = convert_to_tensor(input, dtypes.string)

    def run(arr):
        arr = np.asarray(arr, object)
        out = np.empty(arr.shape, object)
        for i, s in np.ndenumerate(arr):
            try:
                out[i] = _transcode_one(bytes(s), source, target, errors, int(replacement_char),
                                        bool(replace_control_characters))
            except UnicodeError:
                raise InvalidArgumentError("unicode_transcode: Invalid formatting on input string") from None
        return convert_to_tensor(out, dtypes.string)

    return numpy_function(run, [strings], TensorSpec(strings.shape, dtypes.string))
