import { buildAdminUi } from './builtUi';
import { chromiumMissingReason } from './chromium';

/** The browser suite's once-per-run step: build the UI the API serves (or say why it is skipped). */
export default function setup(): void {
  const missing = chromiumMissingReason();
  if (missing) {
    console.log(`Browser suite skipped: ${missing}`);
    return;
  }
  if (!process.env.TMP_NOBUILD) buildAdminUi();
}
