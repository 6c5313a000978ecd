import type { EdgeTypes } from '@xyflow/react';
import { ConditionEdge } from './ConditionEdge.tsx';

// At module scope, for the same reason as nodeTypes.
export const edgeTypes: EdgeTypes = { condition: ConditionEdge };
