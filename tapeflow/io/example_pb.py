"""tf.train.Example and its parts, with the field numbers of TensorFlow's public
tensorflow/core/example/feature.proto and example.proto:

  BytesList { repeated bytes value = 1; }
  FloatList { repeated float value = 1 [packed = true]; }
  Int64List { repeated int64 value = 1 [packed = true]; }
  Feature   { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2; Int64List int64_list = 3; } }
  Features  { map<string, Feature> feature = 1; }
  FeatureList  { repeated Feature feature = 1; }
  FeatureLists { map<string, FeatureList> feature_list = 1; }
  Example          { Features features = 1; }
  SequenceExample  { Features context = 1; FeatureLists feature_lists = 2; }
"""
from tapeflow.io.proto_message import (
    MapField, Message, Repeated, RepeatedMessage, SubMessage, coerce_bytes, coerce_float, coerce_int64,
)


class BytesList(Message):
    FULL_NAME = "tensorflow.BytesList"
    FIELDS = {"value": (1, Repeated(coerce_bytes, "bytes"))}


class FloatList(Message):
    FULL_NAME = "tensorflow.FloatList"
    FIELDS = {"value": (1, Repeated(coerce_float, "packed-float"))}


class Int64List(Message):
    FULL_NAME = "tensorflow.Int64List"
    FIELDS = {"value": (1, Repeated(coerce_int64, "packed-varint"))}


class Feature(Message):
    FULL_NAME = "tensorflow.Feature"
    FIELDS = {"bytes_list": (1, SubMessage("BytesList")), "float_list": (2, SubMessage("FloatList")),
              "int64_list": (3, SubMessage("Int64List"))}
    ONEOF = ("kind", ("bytes_list", "float_list", "int64_list"))


class Features(Message):
    FULL_NAME = "tensorflow.Features"
    FIELDS = {"feature": (1, MapField("Feature"))}


class FeatureList(Message):
    FULL_NAME = "tensorflow.FeatureList"
    FIELDS = {"feature": (1, RepeatedMessage("Feature"))}


class FeatureLists(Message):
    FULL_NAME = "tensorflow.FeatureLists"
    FIELDS = {"feature_list": (1, MapField("FeatureList"))}


class Example(Message):
    FULL_NAME = "tensorflow.Example"
    FIELDS = {"features": (1, SubMessage("Features"))}


class SequenceExample(Message):
    FULL_NAME = "tensorflow.SequenceExample"
    FIELDS = {"context": (1, SubMessage("Features")), "feature_lists": (2, SubMessage("FeatureLists"))}
