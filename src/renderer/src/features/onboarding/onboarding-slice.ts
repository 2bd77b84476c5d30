// The first start: which agents this machine offers (agents.detect), and whether any run has
// succeeded yet; the onboarding card shows until one has, or until it is dismissed.
import type { AgentDetection } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface OnboardingSlice {
  detection: AgentDetection | undefined;
  /** Whether a run ever succeeded; undefined until asked. */
  everSucceeded: boolean | undefined;
  onboardingDismissed: boolean;
  /** Looks for agent CLIs on PATH and a model server at `baseUrl` (default: Ollama's). */
  detectAgents: (baseUrl?: string) => Promise<AgentDetection>;
  loadOnboarding: () => Promise<void>;
  /** A run succeeded (a live event). */
  noteSuccess: () => void;
  dismissOnboarding: () => void;
}

export const onboardingSlice: Slice<OnboardingSlice> = (set, get) => ({
  detection: undefined,
  everSucceeded: undefined,
  onboardingDismissed: false,
  async detectAgents(baseUrl) {
    const detection = await get().client.call('agents.detect', { query: { baseUrl } });
    set({ detection });
    return detection;
  },
  async loadOnboarding() {
    const { runs } = await get().client.call('runs.list', { query: { status: 'succeeded', limit: 1 } });
    set({ everSucceeded: runs.length > 0 || get().everSucceeded === true });
  },
  noteSuccess: () => set({ everSucceeded: true }),
  dismissOnboarding: () => set({ onboardingDismissed: true }),
});
