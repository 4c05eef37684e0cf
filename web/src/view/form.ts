// Form controls whose value is the state's: a select marks its option
// chosen (an option is marked when made, before it joins its select, so a
// select's own value could not be set then).

import { h, type VNode } from 'snabbdom';

/** A select `id` of `options` ([value, label]), `value` chosen; `onChange` gets the player's choice. */
export function select(id: string, value: string, options: [string, string][], onChange: (value: string) => void, attrs: Record<string, string> = {}): VNode {
  return h(
    `select#${id}`,
    { attrs: { name: id, ...attrs }, on: { change: (event: Event) => onChange((event.target as HTMLSelectElement).value) } },
    options.map(([optionValue, label]) => h('option', { attrs: { value: optionValue }, props: { selected: optionValue === value } }, label)),
  );
}
