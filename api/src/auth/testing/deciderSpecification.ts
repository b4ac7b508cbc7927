import { DomainError } from '@issuer/events';
import { expect } from 'vitest';

export interface Decider<State, Command, Event> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

type ExpectedError = Partial<Pick<DomainError, 'status' | 'code' | 'message' | 'fields'>>;

/** given(past events).when(command).then(new events) or .thenThrows(the domain error). */
export function deciderSpecification<State, Command, Event>(
  decider: Decider<State, Command, Event>,
) {
  return {
    given: (history: readonly Event[]) => ({
      when: (command: Command) => {
        const decide = () =>
          decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
        return {
          // biome-ignore lint/suspicious/noThenProperty: given/when/then is the test language; never awaited
          then: (expected: readonly Event[]) => expect(decide()).toEqual(expected),
          thenThrows: (expected: ExpectedError) => {
            let thrown: unknown;
            try {
              decide();
            } catch (error) {
              thrown = error;
            }
            expect(thrown).toBeInstanceOf(DomainError);
            expect(thrown).toMatchObject(expected);
          },
        };
      },
    }),
  };
}
