"""A real RL library's training loop over the vector environment: skrl's PPO (JAX backend) for a few hundred steps.

skrl wraps any ``gymnasium.vector.VectorEnv``; its PPO samples from the policy model alone, so the mask reaches the
model inside the (flattened) observation and the model gives illegal ids no probability. An illegal id would raise
(``CarcassonneVectorEnv`` never applies one), so a loop that runs to its end has only played legal actions.
"""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
flax = pytest.importorskip("flax")
skrl = pytest.importorskip("skrl")

import flax.linen as nn
import jax.numpy as jnp
from skrl.agents.jax.ppo import PPO, PPO_CFG
from skrl.envs.wrappers.jax import wrap_env
from skrl.memories.jax import RandomMemory
from skrl.models.jax import CategoricalMixin, DeterministicMixin, Model
from skrl.trainers.jax import SequentialTrainer
from skrl.utils.spaces.jax import unflatten_tensorized_space

from carcassonne.vector import CarcassonneVectorEnv


class MaskedPolicy(CategoricalMixin, Model):
    """Logits over every id from the flat observation; illegal ids pushed to -1e9 by the mask beside it."""

    def __init__(self, **spaces):
        Model.__init__(self, **spaces)  # the spaces and the device, by name
        CategoricalMixin.__init__(self, unnormalized_log_prob=True)

    @nn.compact
    def __call__(self, inputs, role=""):
        obs = unflatten_tensorized_space(self.observation_space, inputs["observations"])
        x = nn.relu(nn.Dense(32)(obs["observation"]))
        logits = nn.Dense(self.num_actions)(x)
        return jnp.where(obs["action_mask"] > 0, logits, -1e9), {}


class Value(DeterministicMixin, Model):
    """The value of the flat observation."""

    def __init__(self, **spaces):
        Model.__init__(self, **spaces)
        DeterministicMixin.__init__(self)

    @nn.compact
    def __call__(self, inputs, role=""):
        obs = unflatten_tensorized_space(self.observation_space, inputs["observations"])
        return nn.Dense(1)(nn.relu(nn.Dense(32)(obs["observation"]))), {}


skrl.logger.setLevel("WARNING")  # its exit handler logs after pytest has closed the streams


def test_skrl_ppo_trains_on_the_vector_environment_for_a_few_hundred_steps():
    base = CarcassonneVectorEnv(8, opponents="random", window=8, reward="outcome", seed=11)
    env = wrap_env(base, wrapper="gymnasium", verbose=False)
    assert env.num_envs == 8
    models = {
        role: cls(observation_space=env.observation_space, action_space=env.action_space, device=env.device)
        for role, cls in (("policy", MaskedPolicy), ("value", Value))
    }
    for model in models.values():
        model.init_state_dict(role="")
    before = jax.tree_util.tree_map(np.array, models["policy"].state_dict.params)
    cfg = PPO_CFG(rollouts=32, learning_epochs=2, mini_batches=2, learning_rate=1e-3, entropy_loss_scale=0.01)
    cfg.experiment.write_interval = 0
    cfg.experiment.checkpoint_interval = 0
    memory = RandomMemory(memory_size=32, num_envs=env.num_envs, device=env.device)
    agent = PPO(
        models=models,
        memory=memory,
        observation_space=env.observation_space,
        action_space=env.action_space,
        device=env.device,
        cfg=cfg,
    )
    trainer = SequentialTrainer(
        env=env, agents=agent, cfg={"timesteps": 320, "headless": True, "disable_progressbar": True}
    )
    trainer.train()

    # 320 decisions of 8 games against random: every game ended at least once (a base game is about 70 of the
    # agent's decisions), and ten updates changed the policy.
    assert base.vec.episodes() >= 8
    after = jax.tree_util.tree_map(np.array, models["policy"].state_dict.params)
    changed = jax.tree_util.tree_leaves(jax.tree_util.tree_map(lambda a, b: bool(np.any(a != b)), before, after))
    assert all(changed)
    env.close()
