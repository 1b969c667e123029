import { Table } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/**
 * A table with its caption, scrolling sideways on its own on a narrow screen (WCAG 1.4.10: the page
 * itself never does). The scrolling box is named by the caption and takes the focus, so that a
 * keyboard scrolls it too.
 */
interface DataTableProps {
  caption: string;
  /** Under a heading that says the same: the caption is for screen readers only. */
  captionHidden?: boolean;
  children: ReactNode;
}

export function DataTable({ caption, captionHidden = false, children }: DataTableProps) {
  const captionId = useId();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard (WCAG 2.1.1)
    <section className="table-scroll" aria-labelledby={captionId} tabIndex={0}>
      <Table captionSide="top" striped withTableBorder verticalSpacing="xs">
        <Table.Caption id={captionId} className={captionHidden ? 'visually-hidden' : 'table-caption'}>
          {caption}
        </Table.Caption>
        {children}
      </Table>
    </section>
  );
}
