import * as Menu from '@radix-ui/react-dropdown-menu';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';

/** Radix's dropdown menu with the back office's look: keyboard and screen-reader behaviour come from Radix. */

/** Not modal: a modal menu locks scrolling with an injected `<style>`, which the CSP (style-src 'self') refuses. */
export function DropdownMenu({ children }: { children: ReactNode }) {
  return <Menu.Root modal={false}>{children}</Menu.Root>;
}
export const DropdownMenuTrigger = Menu.Trigger;

export function DropdownMenuContent({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <Menu.Portal>
      <Menu.Content
        align="end"
        sideOffset={6}
        aria-label={label}
        className="z-50 min-w-52 rounded-xl border border-stone-200 bg-white p-1 shadow-lg"
      >
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="px-3 py-1.5 text-xs font-semibold uppercase text-stone-600">{children}</Menu.Label>;
}

const itemClass =
  'flex cursor-default select-none items-center gap-2 rounded-lg px-3 py-2 text-sm text-stone-800 outline-none data-[highlighted]:bg-amber-50 data-[disabled]:opacity-50';

export function DropdownMenuItem({
  children,
  onSelect,
  disabled,
}: {
  children: ReactNode;
  onSelect(): void;
  disabled?: boolean;
}) {
  return (
    <Menu.Item className={itemClass} onSelect={onSelect} disabled={disabled}>
      {children}
    </Menu.Item>
  );
}

/** A checkbox item that keeps the menu open, so several can be toggled in a row. */
export function DropdownMenuCheckboxItem({
  children,
  checked,
  onCheckedChange,
  disabled,
}: {
  children: ReactNode;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  disabled?: boolean;
}) {
  return (
    <Menu.CheckboxItem
      className={itemClass}
      checked={checked}
      disabled={disabled}
      onCheckedChange={onCheckedChange}
      onSelect={(event) => event.preventDefault()}
    >
      <span className="flex size-4 items-center justify-center rounded border border-stone-400" aria-hidden="true">
        <Menu.ItemIndicator>
          <Check className="size-3.5" />
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.CheckboxItem>
  );
}
