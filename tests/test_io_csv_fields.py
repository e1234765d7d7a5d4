"""CSV records to columns by TensorFlow's decode_csv rules (outcomes measured on TF 2.21)."""
import numpy as np
import pytest

from tapeflow.io import csv_fields as cf
from tapeflow.runtime.errors import InvalidArgumentError

# (record, use_quote_delim, fields)
SPLITS = [(b'1,2.5,"a,b",x', True, [b"1", b"2.5", b"a,b", b"x"]),
          (b'1,,"a""b",', True, [b"1", b"", b'a"b', b""]),
          (b"", True, []),
          (b",", True, [b"", b""]),
          (b'"a\nb",1', True, [b"a\nb", b"1"]),
          (b'"a""",1', True, [b'a"', b"1"]),
          (b'"",x', True, [b"", b"x"]),
          (b'"1",2', False, [b'"1"', b"2"]),
          (b" 1 ,2", True, [b" 1 ", b"2"])]


@pytest.mark.parametrize("record, quote, fields", SPLITS)
def test_split_record(record, quote, fields):
    assert cf.split_record(record, b",", quote) == fields


BAD_SPLITS = [(b'"ab"c,1', "Quote inside a string has to be escaped by another quote"),
              (b'a"b,1', "Unquoted fields cannot have quotes/CRLFs inside"),
              (b"1,2\r", "Unquoted fields cannot have quotes/CRLFs inside"),
              (b"a\nb,1", "Unquoted fields cannot have quotes/CRLFs inside"),
              (b'"abc', "Quoted field has to end with quote followed by delim or end"),
              (b'x,"ab', "Quoted field has to end with quote followed by delim or end")]


@pytest.mark.parametrize("record, message", BAD_SPLITS)
def test_split_errors(record, message):
    with pytest.raises(InvalidArgumentError, match=message):
        cf.split_record(record, b",", True, 0)


def _decode(records, defaults, dtypes, **kw):
    return [a.tolist() for a in cf.decode_records(records, defaults, dtypes, **kw)]


# (records, defaults, dtypes, kwargs, columns)
DECODES = [([b"1,NA,3"], [0, 0, 0], ["int32"] * 3, {"na_value": "NA"}, [[1], [0], [3]]),
           ([b"1,,3"], [0, 5, 0], ["int32"] * 3, {"na_value": "NA"}, [[1], [5], [3]]),
           ([b'1,"",3'], [0, b"", 0], ["int32", "string", "int32"], {}, [[1], [b""], [3]]),
           ([b"1;2;3"], [0, 0], ["int32"] * 2, {"field_delim": ";", "select_cols": [0, 2]}, [[1], [3]]),
           ([b" 1 , 2.5 "], [0, 0.0], ["int32", "float32"], {}, [[1], [2.5]]),
           ([b"+5,-1e-3"], [0, 0.0], ["int32", "float64"], {}, [[5], [-0.001]]),
           ([b"1e39,0x1A"], [0.0, 0.0], ["float32", "float32"], {}, [[np.inf], [26.0]]),
           ([b"nan,inf"], [0.0, 0.0], ["float64", "float64"], {}, [[np.nan], [np.inf]]),
           ([b"3000000000,2"], [0, 0], ["int64", "int32"], {}, [[3000000000], [2]]),
           ([b"x"], [b"a"], ["string"], {"na_value": "x"}, [[b"a"]]),
           ([b"1,2", b"3,4"], [0, 0], ["int64", "int64"], {}, [[1, 3], [2, 4]])]


@pytest.mark.parametrize("records, defaults, dtypes, kw, want", DECODES)
def test_decode_records(records, defaults, dtypes, kw, want):
    got = _decode(records, defaults, dtypes, **kw)
    np.testing.assert_equal(got, want)


BAD_DECODES = [([b",2"], [None, 1.0], ["int32", "float32"], {}, "Field 0 is required but missing in record 0!"),
               ([b"1,2,3"], [0, 0], ["int32"] * 2, {}, "Expect 2 fields but have 3 in record 0"),
               ([b"1,2", b"1"], [0, 0], ["int32"] * 2, {}, "Expect 2 fields but have 1 in record 1"),
               ([b"a,2"], [0, 0], ["int32"] * 2, {}, "Field 0 in record 0 is not a valid int32: a"),
               ([b"1.5,2"], [0, 0], ["int32"] * 2, {}, "not a valid int32: 1.5"),
               ([b"2147483648"], [0], ["int32"], {}, "not a valid int32: 2147483648"),
               ([b"  ,2"], [1, 0], ["int32"] * 2, {}, "not a valid int32"),
               ([b"1_0"], [0], ["int32"], {}, "not a valid int32"),
               ([b"1.5x"], [0.0], ["float32"], {}, "not a valid float: 1.5x"),
               ([b"-"], [0.0], ["float64"], {}, "not a valid double: -"),
               ([b""], [0], ["int32"], {}, "Expect 1 fields but have 0 in record 0"),
               ([b"1,2"], [0, 0], ["int32"] * 2, {"select_cols": [0, 2]}, "Expect 2 fields but have 1"),
               ([b"1,2"], [0, 0], ["int32"] * 2, {"field_delim": "ab"}, "field_delim should be only 1 char")]


@pytest.mark.parametrize("records, defaults, dtypes, kw, message", BAD_DECODES)
def test_decode_errors(records, defaults, dtypes, kw, message):
    with pytest.raises(InvalidArgumentError, match=message):
        cf.decode_records(records, defaults, dtypes, **kw)


def test_vectorized_columns_agree_with_field_rules():
    rng = np.random.RandomState(0)
    ints, floats = rng.randint(-10 ** 6, 10 ** 6, 200), rng.randn(200).astype(np.float32)
    records = [b"%d,%r, x%d" % (i, float(f), k) for k, (i, f) in enumerate(zip(ints, floats))]
    cols = cf.decode_records(records, [0, 0.0, b""], ["int64", "float32", "string"])
    assert cols[0].tolist() == ints.tolist() and cols[1].tolist() == floats.tolist()
    assert cols[2][5] == b" x5"
    bad = records[:150] + [b"1_000,1.0,x"] + records[150:]
    with pytest.raises(InvalidArgumentError, match="Field 0 in record 150 is not a valid int64: 1_000"):
        cf.decode_records(bad, [0, 0.0, b""], ["int64", "float32", "string"])
    wide = [b"%d" % (2 ** 31 + k) for k in range(40)]
    with pytest.raises(InvalidArgumentError, match="record 0 is not a valid int32"):
        cf.decode_records(wide, [0], ["int32"])
    assert cf.decode_records(wide, [0], ["int64"])[0][-1] == 2 ** 31 + 39
