import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-VTLJXSES.js";import"./chunk-K3D5RFA3.js";import"./chunk-S74SUYWC.js";import"./chunk-LC5F4MIW.js";import"./chunk-LQ4X2TR5.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
