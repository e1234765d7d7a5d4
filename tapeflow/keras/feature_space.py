"""keras.utils.FeatureSpace (Keras 3): one layer that preprocesses a dict of structured-data
features, each by a preprocessing layer chosen by its kind (float_normalized, integer_categorical,
string_hashed, ...), crosses some of them (HashedCrossing) and one-hots the categorical ones,
giving their concatenation in sorted-name order (crosses last) or a dict.

adapt(dataset) adapts each preprocessor on its column and builds the symbolic graph
(get_inputs / get_encoded_features, for an end-to-end keras.Model); calling the space on a dict
of arrays or tensors (eagerly, or in a tf.data map) runs the same layers."""
import tapeflow as tf
from tapeflow.keras import layers
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.naming import unique_name
from tapeflow.runtime.errors import with_location


class Cross:
    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in ("int", "one_hot"):
            raise ValueError(with_location(f"Invalid value for argument `output_mode`. Expected one of "
                                           f"{{'int', 'one_hot'}}. Received: output_mode={output_mode}"))
        self.feature_names, self.crossing_dim, self.output_mode = tuple(feature_names), crossing_dim, output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}


class Feature:
    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in ("int", "one_hot", "float"):
            raise ValueError(with_location(f"Invalid value for argument `output_mode`. Expected one of "
                                           f"{{'int', 'one_hot', 'float'}}. Received: output_mode={output_mode}"))
        self.dtype, self.preprocessor, self.output_mode = dtype, preprocessor, output_mode


def _cardinality(name, preprocessor):
    """The size of a one-hot feature's space, from its preprocessor (Keras 3's list)."""
    if isinstance(preprocessor, (layers.IntegerLookup, layers.StringLookup)):
        return preprocessor.vocabulary_size()
    if isinstance(preprocessor, layers.CategoryEncoding):
        return preprocessor.num_tokens
    if isinstance(preprocessor, (layers.Discretization, layers.HashedCrossing, layers.Hashing)):
        return preprocessor.num_bins
    raise ValueError(with_location(
        f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a standard feature and the "
        f"dimensionality of its output space is not known, thus it cannot be one-hot encoded. Try using "
        f"`output_mode='int'`."))


class FeatureSpace(Layer):
    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or unique_name("float")
        return Feature("float32", layers.Identity(dtype="float32", name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        name = name or unique_name("float_rescaled")
        return Feature("float32", layers.Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_normalized(cls, name=None):
        name = name or unique_name("float_normalized")
        return Feature("float32", layers.Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        name = name or unique_name("float_discretized")
        pre = layers.Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor")
        return Feature("float32", pre, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique_name("integer_categorical")
        pre = layers.IntegerLookup(name=f"{name}_preprocessor", max_tokens=max_tokens,
                                   num_oov_indices=num_oov_indices)
        return Feature("int32", pre, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique_name("string_categorical")
        pre = layers.StringLookup(name=f"{name}_preprocessor", max_tokens=max_tokens,
                                  num_oov_indices=num_oov_indices)
        return Feature("string", pre, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("string_hashed")
        return Feature("string", layers.Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("integer_hashed")
        return Feature("int32", layers.Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    _KINDS = ("float", "float_normalized", "float_rescaled", "float_discretized", "integer_categorical",
              "string_categorical", "integer_hashed", "string_hashed")

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32, hashing_dim=32,
                 num_discretization_bins=32, name=None):
        super().__init__(name=name)
        if not features:
            raise ValueError(with_location("The `features` argument cannot be None or empty."))
        self.crossing_dim, self.hashing_dim = crossing_dim, hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {n: self._standardize_feature(n, f) for n, f in features.items()}
        self.crosses = []
        for cross in crosses or []:
            if not isinstance(cross, Cross):
                unknown = [k for k in cross if k not in features]
                if unknown:
                    raise ValueError(with_location(f"All features referenced in the `crosses` argument should be "
                                                   f"present in the `features` dict. Received unknown features: "
                                                   f"{cross}"))
                cross = Cross(cross, crossing_dim=crossing_dim)
            self.crosses.append(cross)
        self.crosses_by_name = {c.name: c for c in self.crosses}
        if output_mode not in ("dict", "concat"):
            raise ValueError(with_location(f"Invalid value for argument `output_mode`. Expected one of "
                                           f"{{'dict', 'concat'}}. Received: output_mode={output_mode}"))
        self.output_mode = output_mode
        self.inputs = {n: layers.Input(shape=(1,), dtype=f.dtype, name=n) for n, f in self.features.items()}
        self.preprocessors = {n: f.preprocessor for n, f in self.features.items()}
        self.crossers = {c.name: layers.HashedCrossing(c.crossing_dim, name=c.name) for c in self.crosses}
        self.one_hot_encoders, self.encoded_features, self.concat = {}, None, None
        self._is_adapted = False

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if feature not in self._KINDS:
            raise ValueError(with_location(f"Invalid feature type: {feature}"))
        if feature == "float_discretized":
            return self.float_discretized(num_bins=self.num_discretization_bins, name=name)
        if feature.endswith("_hashed"):
            return getattr(self, feature)(self.hashing_dim, name=name)
        return getattr(self, feature)(name=name)

    def _adaptable(self):
        return [n for n, p in self.preprocessors.items() if hasattr(p, "adapt")
                and not (isinstance(p, layers.Normalization) and p.input_mean is not None)]

    def adapt(self, dataset):
        if not isinstance(dataset, tf.data.Dataset):
            if not isinstance(dataset, dict):
                raise ValueError(with_location(f"`adapt()` can only be called on a tf.data.Dataset or a dict of "
                                               f"arrays/lists. Received instead: {dataset} (of type "
                                               f"{type(dataset)})"))
            dataset = tf.data.Dataset.from_tensor_slices(dataset)
        for name in self._adaptable():
            column = dataset.map(lambda x, name=name: x[name])
            rank = len(next(iter(column)).shape)
            column = column.batch(32) if rank == 0 else column
            column = column.map(lambda x: tf.expand_dims(x, -1)) if rank in (0, 1) else column
            self.preprocessors[name].adapt(column)
        self._is_adapted = True
        self.get_encoded_features()
        self.built = True

    def get_inputs(self):
        self.get_encoded_features()
        return self.inputs

    def get_encoded_features(self):
        if not self._is_adapted and self._adaptable():
            raise ValueError(with_location("You need to call `.adapt(dataset)` on the FeatureSpace before you can "
                                           "start using it."))
        self._is_adapted = True
        if self.encoded_features is None:
            self.encoded_features = self._encode(self.inputs, first=True)
        return self.encoded_features

    def _encode(self, data, first=False):
        """Preprocess, cross, one-hot (encoders made on the first, symbolic pass) and merge."""
        pre = {n: self.preprocessors[n](data[n]) for n in data}
        crossed = {c.name: self.crossers[c.name]([pre[n] for n in c.feature_names]) for c in self.crosses}
        # every feature, in sorted order: a key missing from `data` is Keras's KeyError (an extra one
        # was already KeyError in `pre`)
        named = [(n, pre[n], self.features[n]) for n in sorted(self.features)]
        named += [(n, crossed[n], self.crosses_by_name[n]) for n in sorted(crossed)]
        out = {}
        for name, value, spec in named:
            dtype = tf.as_dtype(value.dtype)  # a KerasTensor's dtype may be its name
            if first and spec.output_mode == "one_hot":
                if not dtype.is_integer:
                    raise ValueError(with_location(
                        f"Feature '{name}' has `output_mode='one_hot'`. Thus its preprocessor should return an "
                        f"integer dtype. Instead it returns a {dtype.name} dtype."))
                size = _cardinality(name, self.preprocessors.get(name) or self.crossers.get(name))
                self.one_hot_encoders[name] = layers.CategoryEncoding(num_tokens=size, output_mode="multi_hot")
            encoder = self.one_hot_encoders.get(name)
            value = encoder(value) if encoder is not None else value
            dtype = tf.as_dtype(value.dtype)
            if self.output_mode == "concat" and (dtype.is_integer or dtype == tf.string):
                raise ValueError(with_location(f"Cannot concatenate features because feature '{name}' has not been "
                                               f"encoded (it has dtype {dtype.name}). Consider using "
                                               f"`output_mode='dict'`."))
            out[name] = value
        if self.output_mode == "dict":
            return out
        self.concat = self.concat or layers.Concatenate(axis=-1)
        return self.concat(list(out.values()))

    def __call__(self, data):
        self.get_encoded_features()
        if not isinstance(data, dict):
            raise ValueError(with_location(f"A FeatureSpace can only be called with a dict. Received: data={data} "
                                           f"(of type {type(data)}"))
        data = {k: tf.convert_to_tensor(v) for k, v in data.items()}
        rebatched = any(x.shape.rank == 0 for x in data.values())
        data = {k: tf.reshape(x, (1, 1)) if x.shape.rank == 0 else tf.expand_dims(x, -1) if x.shape.rank == 1 else x
                for k, x in data.items()}
        merged = self._encode(data)
        if not rebatched:
            return merged
        if self.output_mode == "concat":
            return tf.squeeze(merged, axis=0)
        return {k: tf.squeeze(x, axis=0) if x.shape.rank == 2 and x.shape[0] == 1 else x for k, x in merged.items()}

    def get_config(self):
        return {"output_mode": self.output_mode, "crosses": [c.get_config() for c in self.crosses],
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}
