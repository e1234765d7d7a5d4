"""keras.utils.FeatureSpace: the preprocessing of a dict of structured-data features
(Keras's structured-data example), as Keras 3 does it.

Each feature is preprocessed by one layer into a column block: numbers as they are,
rescaled, normalized or bucketized; integers and strings looked up in an adapted
vocabulary or hashed, then one-hot encoded.  A cross hashes the bucket / vocabulary
ids of several categorical features together (HashedCrossing).  `adapt(dataset)` fits
every layer that learns from data; calling the space on a dict of values (batched or
one example) gives the blocks concatenated in the features' name order, then the
crosses (output_mode="concat"), or a dict of them ("dict").  `get_inputs()` and
`get_encoded_features()` make the same preprocessing part of a functional model."""
from tapeflow.keras import layers as L
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class Feature:
    """One feature: its input dtype, the layer that preprocesses it and how its ids are
    encoded ("one_hot" or "int"; None for numeric features, which pass as floats)."""

    def __init__(self, dtype, preprocessor, output_mode):
        self.dtype, self.preprocessor, self.output_mode = dtype, preprocessor, output_mode


class Cross:
    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        self.feature_names = tuple(feature_names)
        self.crossing_dim, self.output_mode = int(crossing_dim), output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)


class FeatureSpace(Layer):
    _allow_non_tensor_positional_args = True  # a dict of arrays or Python values

    # ---- the feature kinds (Keras's static constructors)
    @staticmethod
    def float(name=None):
        return Feature("float32", L.Identity(name=name), None)

    @staticmethod
    def float_rescaled(scale=1.0, offset=0.0, name=None):
        return Feature("float32", L.Rescaling(scale=scale, offset=offset, name=name), None)

    @staticmethod
    def float_normalized(name=None):
        return Feature("float32", L.Normalization(axis=-1, name=name), None)

    @staticmethod
    def float_discretized(num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        layer = L.Discretization(num_bins=None if bin_boundaries is not None else num_bins,
                                 bin_boundaries=bin_boundaries, name=name)
        return Feature("float32", layer, output_mode)

    @staticmethod
    def integer_categorical(max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        return Feature("int32", L.IntegerLookup(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                                                name=name), output_mode)

    @staticmethod
    def string_categorical(max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        return Feature("string", L.StringLookup(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                                                name=name), output_mode)

    @staticmethod
    def string_hashed(num_bins, output_mode="one_hot", name=None):
        return Feature("string", L.Hashing(num_bins=num_bins, name=name), output_mode)

    @staticmethod
    def integer_hashed(num_bins, output_mode="one_hot", name=None):
        return Feature("int32", L.Hashing(num_bins=num_bins, name=name), output_mode)

    @staticmethod
    def feature(dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @staticmethod
    def cross(feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode)

    _SHORTHANDS = ("float", "float_rescaled", "float_normalized", "float_discretized", "integer_categorical",
                   "string_categorical", "integer_hashed", "string_hashed")

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32, hashing_dim=32,
                 num_discretization_bins=32, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not isinstance(features, dict) or not features:
            raise ValueError(with_location("FeatureSpace: `features` must be a non-empty dict of name -> feature"))
        if output_mode not in ("concat", "dict"):
            raise ValueError(with_location(f"FeatureSpace: output_mode must be 'concat' or 'dict', got {output_mode!r}"))
        self.output_mode = output_mode
        self.crossing_dim, self.hashing_dim = crossing_dim, hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {n: self._feature(n, f) for n, f in features.items()}
        self.crosses = [c if isinstance(c, Cross) else Cross(c, crossing_dim) for c in crosses or []]
        for cross in self.crosses:
            for n in cross.feature_names:
                if n not in self.features or self.features[n].output_mode is None:
                    raise ValueError(with_location(
                        f"FeatureSpace: cross {cross.name}: {n!r} is not a categorical feature of this space"))
        self.preprocessors = {n: f.preprocessor for n, f in self.features.items()}
        self.crossers = {c.name: L.HashedCrossing(c.crossing_dim, output_mode=c.output_mode) for c in self.crosses}
        self._adapted = False

    def _feature(self, name, spec):
        if isinstance(spec, Feature):
            return spec
        if spec not in self._SHORTHANDS:
            raise ValueError(with_location(f"FeatureSpace: feature {name!r}: unknown kind {spec!r}; use one of "
                                           f"{list(self._SHORTHANDS)} or a FeatureSpace.<kind>(...) object"))
        args = {"float_discretized": {"num_bins": self.num_discretization_bins},
                "integer_hashed": {"num_bins": self.hashing_dim},
                "string_hashed": {"num_bins": self.hashing_dim}}.get(spec, {})
        return getattr(FeatureSpace, spec)(name=name, **args)

    # ---- adapting
    def adapt(self, dataset):
        """Fit each preprocessor that learns from data to its feature of `dataset` (dicts)."""
        from tapeflow.data import Dataset
        if not isinstance(dataset, Dataset):
            raise ValueError(with_location("FeatureSpace.adapt: expects a tf.data.Dataset of feature dicts"))
        for name, feature in self.features.items():
            if hasattr(feature.preprocessor, "adapt"):
                column = dataset.map(lambda x, n=name: x[n])
                feature.preprocessor.adapt(column.map(lambda v: v if v.shape.rank else v[None]))
        self._adapted = True

    # ---- applying
    def _column(self, name, value):
        import tapeflow as tf
        dtype = "string" if self.features[name].dtype == "string" else self.features[name].dtype
        x = tf.convert_to_tensor(value)
        x = x if x.dtype == dtype or dtype == "string" else tf.cast(x, "float32" if dtype == "float32" else "int64")
        return x if x.shape.rank == 2 else tf.reshape(x, (-1, 1))

    def call(self, data):
        import tapeflow as tf
        if not isinstance(data, dict) or set(self.features) - set(data):
            missing = sorted(set(self.features) - set(data)) if isinstance(data, dict) else list(self.features)
            raise ValueError(with_location(f"FeatureSpace: expects a dict with every feature; missing {missing}"))
        single = tf.convert_to_tensor(next(iter(data[n] for n in self.features))).shape.rank == 0
        ids, encoded = {}, {}
        for name, feature in self.features.items():
            out = feature.preprocessor(self._column(name, data[name]))
            ids[name] = out
            if feature.output_mode == "one_hot":
                depth = (feature.preprocessor.vocabulary_size() if hasattr(feature.preprocessor, "vocabulary_size")
                         else getattr(feature.preprocessor, "num_bins", None) or
                         len(feature.preprocessor.bin_boundaries) + 1)
                out = L.CategoryEncoding(depth, output_mode="one_hot")(out)
            encoded[name] = tf.cast(out, "float32") if feature.output_mode != "int" else out
        for cross in self.crosses:
            encoded[cross.name] = self.crossers[cross.name]([ids[n] for n in cross.feature_names])
        names = sorted(self.features) + [c.name for c in self.crosses]  # Keras's order
        if self.output_mode == "dict":
            return {k: (encoded[k][0] if single else encoded[k]) for k in names}
        blocks = [encoded[k] for k in names]
        merged = tf.concat([tf.cast(b, "float32") for b in blocks], axis=-1)
        return merged[0] if single else merged

    def get_inputs(self):
        """A keras.Input per feature (shape (1,), the feature's dtype), as the model's inputs."""
        from tapeflow.keras.layers.input import Input
        inputs = self.__dict__.get("_inputs")
        if inputs is None:
            inputs = {n: Input((1,), dtype=f.dtype, name=n) for n, f in self.features.items()}
            self.__dict__["_inputs"] = inputs
        return inputs

    def get_encoded_features(self):
        """The preprocessed features of get_inputs(), symbolic: the input of a model's first layer."""
        encoded = self.__dict__.get("_encoded")
        if encoded is None:
            encoded = self(self.get_inputs())
            self.__dict__["_encoded"] = encoded
        return encoded
