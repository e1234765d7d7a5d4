"""tf.config logical CPU devices (TF's guide "distributed training" splits one CPU so):
names as TensorFlow's /device:CPU:i, usable in tf.device, and removable again."""
import warnings

import pytest

import tapeflow as tf


@pytest.fixture
def cpu():
    cpu = tf.config.list_physical_devices("CPU")[0]
    yield cpu
    tf.config.set_logical_device_configuration(cpu, None)


def test_split_cpu_into_logical_devices(cpu):
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    names = [d.name for d in tf.config.list_logical_devices("CPU")]
    assert names == ["/device:CPU:0", "/device:CPU:1", "/device:CPU:2"]
    assert len(tf.config.get_logical_device_configuration(cpu)) == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # CPU:2 exists now: no soft-placement warning
        with tf.device("/CPU:2"):
            assert float(tf.constant(1.0) + 1) == 2.0


def test_virtual_device_spelling_and_reset(cpu):
    tf.config.experimental.set_virtual_device_configuration(
        cpu, [tf.config.experimental.VirtualDeviceConfiguration()] * 2)
    assert len(tf.config.list_logical_devices("CPU")) == 2
    tf.config.set_logical_device_configuration(cpu, None)
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == ["/device:CPU:0"]


def test_a_gpu_cannot_be_split():
    from tapeflow.runtime.devices import PhysicalDevice
    gpu = PhysicalDevice("/physical_device:GPU:0", "GPU")
    with pytest.raises(NotImplementedError, match="only the CPU can be split"):
        tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration()] * 2)
