import { dayStartInZone } from '@hornada/domain';
import { logged, type Logged, type OrderUpdate, type StepResult } from '../order-update';
import { checkDay, preparationOf } from '../slots';

/** Day and window: never a past or closed day; staff may pass the lead time and a full window. */
export async function moveDay(u: OrderUpdate): Promise<StepResult | void> {
  const { current, data, settings: s, dayChanged } = u;
  const windowChanged = u.editing.includes('window');
  if (!dayChanged && !windowChanged) return;
  const day = u.day ?? u.currentDay;
  const window = data.window !== undefined ? data.window : current.window;
  const notes = await checkDay(u.db, {
    companyId: u.companyId,
    settings: s,
    day,
    window,
    staff: true,
    now: u.now,
    except: current.id,
  });
  const log: Logged[] = [];
  const set: Record<string, unknown> = {};
  if (dayChanged) {
    set.dueDate = dayStartInZone(day, s.timeZone);
    set.preparationDate = preparationOf(day, s);
    log.push(logged('dueDate', u.currentDay, day, notes[0]));
  }
  if (windowChanged) log.push(logged('window', current.window, window, dayChanged ? undefined : notes[0]));
  return { set, log };
}
