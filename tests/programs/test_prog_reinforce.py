"""REINFORCE on a multi-armed bandit and a tiny chain MDP with tf.random.categorical."""
import numpy as np
import tapeflow as tf


def test_bandit_policy_gradient_finds_best_arm():
    tf.random.set_seed(0)
    true_means = tf.constant([0.1, 0.5, 0.9, 0.3])
    logits = tf.Variable(tf.zeros([1, 4]))
    opt = tf.keras.optimizers.Adam(0.05)

    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            actions = tf.random.categorical(logits, num_samples=64)[0]  # int64 [64]
            rewards = tf.gather(true_means, actions) + tf.random.normal([64], stddev=0.1)
            baseline = tf.reduce_mean(rewards)
            log_probs = tf.nn.log_softmax(logits)[0]
            chosen = tf.gather(log_probs, actions)
            loss = -tf.reduce_mean(chosen * tf.stop_gradient(rewards - baseline))
        grads = tape.gradient(loss, [logits])
        opt.apply_gradients(zip(grads, [logits]))
        return tf.reduce_mean(rewards)

    for _ in range(150):
        avg = train_step()
    probs = tf.nn.softmax(logits)[0].numpy()
    assert np.argmax(probs) == 2 and probs[2] > 0.9, probs
    assert float(avg) > 0.8


def test_chain_mdp_reinforce_with_discounted_returns():
    """Walk right along a 5-state chain to reach the reward; episodes rolled out in Python."""
    tf.keras.utils.set_random_seed(1)
    n_states, gamma = 5, 0.9
    policy = tf.keras.Sequential([tf.keras.Input(shape=(n_states,)), tf.keras.layers.Dense(16, activation="relu"),
                                  tf.keras.layers.Dense(2)])
    opt = tf.keras.optimizers.Adam(0.02)

    def run_episode():
        s, states, actions, rewards = 0, [], [], []
        for _ in range(12):
            obs = tf.one_hot([s], n_states)
            a = int(tf.random.categorical(policy(obs), 1)[0, 0])
            states.append(s)
            actions.append(a)
            s = min(s + 1, n_states - 1) if a == 1 else max(s - 1, 0)
            r = 1.0 if s == n_states - 1 else 0.0
            rewards.append(r)
            if r:
                break
        returns, g = [], 0.0
        for r in reversed(rewards):
            g = r + gamma * g
            returns.append(g)
        return states, actions, returns[::-1]

    @tf.function(reduce_retracing=True)  # episodes have different lengths
    def update(states, actions, returns):
        with tf.GradientTape() as tape:
            logits = policy(tf.one_hot(states, n_states))
            neg_logp = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
            loss = tf.reduce_sum(neg_logp * returns)
        opt.apply_gradients(zip(tape.gradient(loss, policy.trainable_variables), policy.trainable_variables))
        return loss

    lengths = []
    for ep in range(100):
        states, actions, returns = run_episode()
        update(tf.constant(states), tf.constant(actions), tf.constant(returns, tf.float32))
        lengths.append(len(states))
    probs_right = tf.nn.softmax(policy(tf.eye(n_states)))[:, 1].numpy()
    assert np.all(probs_right[:4] > 0.7) and probs_right[:4].mean() > 0.8, probs_right
    assert np.mean(lengths[-10:]) < 6.0 < np.mean(lengths[:10]), lengths


def test_categorical_sampling_statistics():
    tf.random.set_seed(5)
    logits = tf.math.log([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]])
    s = tf.random.categorical(logits, 20000, seed=3)
    assert s.dtype == tf.int64 and s.shape == (2, 20000)
    freq = np.stack([np.bincount(row, minlength=3) / 20000 for row in s.numpy()])
    np.testing.assert_allclose(freq, [[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]], atol=0.015)
