import type { ComponentChildren } from 'preact';

/**
 * The top of both consoles (the gate's and the organization's): the title, the screens this
 * person may open (the one shown marked), the status line (`problem` when it reports one), and
 * below them what each console puts there: its sign-in and sign-out, and which deployment it is.
 */
export function ConsoleHeader(props: { title: string; screens: ReadonlyArray<readonly [string, string]>; screen: string; status: string; problem: boolean; children: ComponentChildren }) {
  return (
    <header>
      <h1>{props.title}</h1>
      <nav aria-label="Screens">
        {props.screens.map(([s, label]) => (
          <a href={`#/${s}`} class={s === props.screen ? 'here' : ''}>
            {label}
          </a>
        ))}
      </nav>
      <p id="status" class={props.problem ? 'problem' : ''}>
        {props.status}
      </p>
      {props.children}
    </header>
  );
}
