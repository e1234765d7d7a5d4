"""tf.saved_model.SaveOptions: the options tf.saved_model.save takes.

tapeflow's format has one layout, so most options change nothing in what is
written; they are kept (and type-checked) so programs written for TensorFlow run.
`experimental_custom_gradients`: the gradient graphs of tf.custom_gradient
functions are part of every saved graph here, as with TensorFlow's default True;
with False TensorFlow drops them from the file, while a model loaded into the
process that saved it still finds them (the guide's note) — tapeflow keeps them.
"""


class SaveOptions:
    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases", "experimental_debug_stripper",
                 "experimental_io_device", "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver", "experimental_sharding_callback")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None):
        if function_aliases is not None and not isinstance(function_aliases, dict):
            raise TypeError(f"SaveOptions: function_aliases must be a dict, got {type(function_aliases).__name__}")
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = bool(save_debug_info)
        self.function_aliases = dict(function_aliases or {})
        self.experimental_debug_stripper = bool(experimental_debug_stripper)
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_custom_gradients = bool(experimental_custom_gradients)
        self.experimental_image_format = bool(experimental_image_format)
        self.experimental_skip_saver = bool(experimental_skip_saver)
        self.experimental_sharding_callback = experimental_sharding_callback


class LoadOptions:
    """tf.saved_model.LoadOptions.  tapeflow restores every variable of the model, so
    allow_partial_checkpoint changes nothing; experimental_skip_checkpoint=True and
    experimental_load_function_aliases=True are refused by load (not implemented)."""
    __slots__ = ("allow_partial_checkpoint", "experimental_io_device", "experimental_skip_checkpoint",
                 "experimental_variable_policy", "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = bool(allow_partial_checkpoint)
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = bool(experimental_skip_checkpoint)
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_load_function_aliases = bool(experimental_load_function_aliases)
