import type { AdminView } from '../credentials/credential-types';

/** The admin views a platform can publish: `/admin/credentials/{key}` and `/admin/pools/{key}`. */
export type AdminViewKind = 'credentials' | 'pools';

/** What a plugin gets to publish its admin views and actions with (only for its own key). */
export interface PlatformAdmin {
  view(kind: AdminViewKind, render: () => AdminView | Promise<AdminView>): void;
  /** `POST /admin/{kind}/{key}/tokens/{id}/reset`: returns false when the id is unknown. */
  reset(kind: AdminViewKind, action: (id: string) => Promise<boolean>): void;
}

export function createAdminRegistry() {
  const views = new Map<string, () => AdminView | Promise<AdminView>>();
  const resets = new Map<string, (id: string) => Promise<boolean>>();
  return {
    forPlatform(key: string): PlatformAdmin {
      return {
        view: (kind, render) => void views.set(`${kind}/${key}`, render),
        reset: (kind, action) => void resets.set(`${kind}/${key}`, action),
      };
    },
    view(kind: string, key: string) {
      return views.get(`${kind}/${key}`);
    },
    reset(kind: string, key: string) {
      return resets.get(`${kind}/${key}`);
    },
  };
}

export type AdminRegistry = ReturnType<typeof createAdminRegistry>;
