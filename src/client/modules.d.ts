// The build generates this module (src/core/template-files.ts): one lazy import per template.
declare module 'ir-site:template-chunks' {
  export const chunks: Record<string, () => Promise<{ default: import('react').ComponentType<any> }>>;
}
