import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-NRZMJIAY.js";import"./chunk-44LL54XF.js";import"./chunk-F2MJUEKX.js";import"./chunk-3JZVS627.js";import"./chunk-QCFIVB4B.js";import"./chunk-XL4UMCTZ.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-XTI5FTON.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
