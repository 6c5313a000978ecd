import type { LucideIconData } from 'lucide-react';

// Every 'lucide-react/icons/*' module is typed by one file, which names its component only; at run
// time each also exports its drawing. Importing the drawing alone leaves the component out of the bundle.
declare module 'lucide-react/icons/brain' {
  export const __iconData: LucideIconData;
}
declare module 'lucide-react/icons/lock' {
  export const __iconData: LucideIconData;
}
declare module 'lucide-react/icons/pencil' {
  export const __iconData: LucideIconData;
}
declare module 'lucide-react/icons/square-terminal' {
  export const __iconData: LucideIconData;
}
declare module 'lucide-react/icons/chevron-left' {
  export const __iconData: LucideIconData;
}
declare module 'lucide-react/icons/chevron-right' {
  export const __iconData: LucideIconData;
}
declare module 'lucide-react/icons/circle-dot' {
  export const __iconData: LucideIconData;
}
