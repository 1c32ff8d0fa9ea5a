import type { ReactNode } from 'react';

/** A docked panel: a compact title bar (with optional tools on the right) over a scrolling body. */
export function Panel({ title, tools, children, testId }: { title: string; tools?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="panel" data-testid={testId}>
      <header className="panel-header">
        <span className="panel-title">{title}</span>
        {tools && <span className="panel-tools">{tools}</span>}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
