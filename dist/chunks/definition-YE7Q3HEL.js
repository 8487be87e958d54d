import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-GQ2AV3QU.js";import"./chunk-OULGIBU3.js";import"./chunk-NYYDULSV.js";import"./chunk-GFXF3RWM.js";import"./chunk-H3ODVHUH.js";import"./chunk-O45PL77X.js";import"./chunk-4PYPBIHA.js";import"./chunk-FUSE6A2Q.js";import"./chunk-L2TPZUPR.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as action};
